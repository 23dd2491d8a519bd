/**
 * One part of the window failing leaves the rest running: each screen, the toasts and the
 * banner sit in a boundary of their own. A failed screen says so and offers to reload it;
 * the toasts layer starts again with the next notification (the core's fallback showed the
 * one it missed). What was caught goes to the core's log with React's component stack.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportRendererError } from '../lib/error-reports.js';

interface Props {
  /** What failed, in the log and on the screen ("calendar", "toasts"). */
  name: string;
  children: ReactNode;
  /** A screen says it failed and offers a reload; a layer (toasts, banner) shows nothing. */
  variant: 'screen' | 'layer';
  /** A layer tries again when this changes (the next notification). */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    return { resetKey: props.resetKey, error: null };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportRendererError({
      kind: 'boundary',
      message: error.message || error.name,
      stack: error.stack,
      componentStack: info.componentStack ?? undefined,
      screen: this.props.name,
    });
  }

  private readonly reload = () => this.setState({ error: null });

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (this.props.variant === 'layer') return null;
    return (
      <div className="screen-failed pad" role="alert" data-testid="screen-failed">
        <p>
          This screen failed: {error.message}. The rest of Macrobell, alerts included, keeps
          running.
        </p>
        <button type="button" onClick={this.reload}>
          Reload this screen
        </button>
      </div>
    );
  }
}
