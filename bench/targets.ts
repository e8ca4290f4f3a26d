/** The targets the report judges (issue 31; the last three from issue 7). */
export const MEMBER_READ_P95_TARGET_MS = 150;
export const PAGE_RATIO_TARGET = 1.3;
export const RATIO_TARGET = 0.8;
export const RSS_GROWTH_TARGET_MB = 30;
export const OFFICES_P99_TARGET_MS = 25;
export const STORM_FACTOR_TARGET = 2;
/** REST's service CPU per answer on an office by id, at most this × the floor's. */
export const REST_CPU_RATIO_TARGET = 1.3;
/** A burst of sign-ins at once, at least this share of cores ÷ one hash's time. */
export const BURST_SHARE_TARGET = 0.8;
