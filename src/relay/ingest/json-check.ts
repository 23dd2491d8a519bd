/**
 * The webhook body check in one pass over its bytes, without building the value: is it
 * one JSON text (RFC 8259: exactly what `JSON.parse(body.toString('utf8'))` accepts), is
 * it nested at most `maxDepth` deep, and what string is its top-level `type` member.
 * The relay stores the bytes as they came and needs nothing else from them; parsing
 * every body into objects only to drop them was a measurable share of ingest.
 */
import { z } from 'zod';
import { parseCheckedJson } from '../../node/json/checked-json.js';

export type JsonCheck =
  | {
      ok: true;
      /** The top-level object's last `type` member, if it is a string. */ type: string | undefined;
    }
  | { ok: false; reason: 'invalid' | 'too-deep' };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const OBJECT = 1;
const ARRAY = 2;

const INVALID = { ok: false, reason: 'invalid' } as const;
const TOO_DEEP = { ok: false, reason: 'too-deep' } as const;

const isWs = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number | undefined) => c !== undefined && c >= ZERO && c <= NINE;
const isHex = (c: number | undefined) =>
  c !== undefined && ((c >= ZERO && c <= NINE) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66));

function skipWs(b: Buffer, i: number): number {
  while (isWs(b[i])) i++;
  return i;
}

// The check is synchronous and not re-entrant: its scratch state is kept here, not
// allocated per body.
/** Whether the last string scanned had an escape. */
let escSeen = false;
/** Whether the value about to be read is the top-level object's `type`. */
let valueIsType = false;
let stack = new Uint8Array(65);

/** The index after the string opening at `i` (a quote), or -1; escapes flag `escSeen`. */
function scanString(b: Buffer, i: number): number {
  escSeen = false;
  for (let j = i + 1; j < b.length; j++) {
    const c = b[j] as number;
    if (c === QUOTE) return j + 1;
    if (c < 0x20) return -1;
    if (c !== BACKSLASH) continue;
    escSeen = true;
    const e = b[++j];
    if (e === 0x75 /* u */) {
      if (!(isHex(b[j + 1]) && isHex(b[j + 2]) && isHex(b[j + 3]) && isHex(b[j + 4]))) return -1;
      j += 4;
    } else if (
      e !== QUOTE &&
      e !== BACKSLASH &&
      e !== 0x2f && // /
      e !== 0x62 && // b
      e !== 0x66 && // f
      e !== 0x6e && // n
      e !== 0x72 && // r
      e !== 0x74 // t
    )
      return -1;
  }
  return -1;
}

/** The index after the number at `i`, or -1. */
function scanNumber(b: Buffer, i: number): number {
  if (b[i] === MINUS) i++;
  if (b[i] === ZERO) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else return -1;
  if (b[i] === DOT) {
    if (!isDigit(b[++i])) return -1;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

/** The index after the literal `word` at `i`, or -1. */
function scanWord(b: Buffer, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

/** Whether the key between `start` and `end` (quotes included) reads "type". */
function isTypeKey(b: Buffer, start: number, end: number, escaped: boolean): boolean {
  if (escaped) return JSON.parse(b.toString('utf8', start, end)) === 'type';
  return (
    end - start === 6 &&
    b[start + 1] === 0x74 &&
    b[start + 2] === 0x79 &&
    b[start + 3] === 0x70 &&
    b[start + 4] === 0x65
  );
}

/** A member's key and colon at `k` in a container `depth` deep: its value's index, or -1. */
function readKey(b: Buffer, k: number, depth: number): number {
  if (b[k] !== QUOTE) return -1;
  const end = scanString(b, k);
  if (end < 0) return -1;
  valueIsType = depth === 1 && isTypeKey(b, k, end, escSeen);
  const colon = skipWs(b, end);
  return b[colon] === COLON ? colon + 1 : -1;
}

export function checkJson(b: Buffer, maxDepth: number): JsonCheck {
  if (stack.length < maxDepth + 1) stack = new Uint8Array(maxDepth + 1);
  valueIsType = false;
  let depth = 0;
  // The top-level object's last "type" member: its string's span, or none.
  let typeStart = -1;
  let typeEnd = -1;
  let typeEscaped = false;
  let i = 0;
  for (;;) {
    // A value starts at i.
    i = skipWs(b, i);
    const c = b[i];
    const isType = valueIsType;
    valueIsType = false;
    if (isType) typeStart = -1;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === maxDepth) return TOO_DEEP;
      stack[++depth] = c === OPEN_BRACE ? OBJECT : ARRAY;
      i = skipWs(b, i + 1);
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      if (b[i] === close) {
        depth--;
        i++;
      } else if (c === OPEN_BRACE) {
        i = readKey(b, i, depth);
        if (i < 0) return INVALID;
        continue;
      } else continue;
    } else if (c === QUOTE) {
      const end = scanString(b, i);
      if (end < 0) return INVALID;
      if (isType) {
        typeStart = i;
        typeEnd = end;
        typeEscaped = escSeen;
      }
      i = end;
    } else if (c === MINUS || isDigit(c)) {
      i = scanNumber(b, i);
    } else if (c === 0x74) i = scanWord(b, i, 'true');
    else if (c === 0x66) i = scanWord(b, i, 'false');
    else if (c === 0x6e) i = scanWord(b, i, 'null');
    else return INVALID;
    if (i < 0) return INVALID;
    // After a value: a comma, the end of its container, or the end of the text.
    for (;;) {
      i = skipWs(b, i);
      if (depth === 0) {
        if (i !== b.length) return INVALID;
        return {
          ok: true,
          type: typeStart < 0 ? undefined : typeText(b, typeStart, typeEnd, typeEscaped),
        };
      }
      const d = b[i];
      const inObject = stack[depth] === OBJECT;
      if (d === COMMA) {
        i = inObject ? readKey(b, skipWs(b, i + 1), depth) : i + 1;
        if (i < 0) return INVALID;
        break;
      }
      if (d !== (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) return INVALID;
      depth--;
      i++;
    }
  }
}

function typeText(b: Buffer, start: number, end: number, escaped: boolean): string {
  return escaped
    ? parseCheckedJson('the webhook\'s "type"', z.string(), b.toString('utf8', start, end))
    : b.toString('utf8', start + 1, end - 1);
}
