/**
 * Frozen copy of the flag bits of an event date (src/main/store/event-date-row.ts) as
 * migration 005 packed them. Never edit: the bits are on disk; the live reader must keep
 * reading them (test/integration/store/migrations.test.ts checks both).
 */
const ALL_DAY = 1;
const TENTATIVE = 2;
const PRELIMINARY = 4;
const REPORT = 8;
const SPEECH = 16;

/** SQL that packs the five booleans of the JSON record in column `json` into one integer. */
export const FLAGS_FROM_JSON_V1 = (json: string) =>
  `(coalesce(json_extract(${json}, '$.isAllDay'), 0) * ${ALL_DAY}
    + coalesce(json_extract(${json}, '$.isTentative'), 0) * ${TENTATIVE}
    + coalesce(json_extract(${json}, '$.isPreliminary'), 0) * ${PRELIMINARY}
    + coalesce(json_extract(${json}, '$.isReport'), 0) * ${REPORT}
    + coalesce(json_extract(${json}, '$.isSpeech'), 0) * ${SPEECH})`;
