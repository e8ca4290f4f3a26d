/** The targets the report judges (issue 31; the last three from issue 7). */
export const MEMBER_READ_P95_TARGET_MS = 150;
export const PAGE_RATIO_TARGET = 1.3;
export const RATIO_TARGET = 0.8;
export const RSS_GROWTH_TARGET_MB = 30;
export const OFFICES_P99_TARGET_MS = 25;
export const STORM_FACTOR_TARGET = 2;
