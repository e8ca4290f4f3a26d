/**
 * Decisions in plain words, as answers and mails say them to people: never a raw enum such as
 * "Payment VERIFIED".
 */

/** Each document by the name a member knows it by. */
const DOCUMENT_NAMES: Record<string, string> = {
  PHOTO_2X2: "2x2 photo",
  HS_BACCALAUREATE_DIPLOMA: "high school or baccalaureate diploma",
  TWO_THREE_YEAR_PROGRAM_DIPLOMA: "two- or three-year program diploma",
  MASTERS_DEGREE_DIPLOMA: "master's degree diploma",
  DOCTORAL_DEGREE_DIPLOMA: "doctoral degree diploma",
  ORDINATION_CERTIFICATE: "ordination certificate",
  PASTORS_RECOMMENDATION_LETTER: "pastor's recommendation letter",
  LETTER_OF_INTENT: "letter of intent",
  ENDORSEMENT_LETTERS: "endorsement letters",
  MARRIAGE_CONTRACT: "marriage contract",
  CLEARANCE_BARANGAY: "barangay clearance",
  CLEARANCE_POLICE: "police clearance",
  CLEARANCE_NBI: "NBI clearance",
};

/** "CLEARANCE_NBI" → "NBI clearance"; a type not listed in lower-case words. */
export function documentName(type: string): string {
  return DOCUMENT_NAMES[type] ?? type.toLowerCase().replace(/_/g, " ");
}

/** A document's review: "was accepted", "was not accepted", "is waiting for review again". */
export function reviewWords(reviewStatus: string): string {
  if (reviewStatus === "APPROVED") return "was accepted";
  if (reviewStatus === "REJECTED") return "was not accepted";
  return "is waiting for review again";
}

/** A payment's decision: "was verified", "was not verified", "is waiting for review again". */
export function paymentWords(status: string): string {
  if (status === "VERIFIED") return "was verified";
  if (status === "REJECTED") return "was not verified";
  return "is waiting for review again";
}

/** An application's status: "was approved", "was not approved", "is waiting for review again". */
export function applicationWords(status: string): string {
  if (status === "APPROVED") return "was approved";
  if (status === "REJECTED") return "was not approved";
  return "is waiting for review again";
}

/** An interview's outcome: "passed", "not passed", "missed", "pending". */
export function outcomeWords(outcome: string): string {
  const words: Record<string, string> = {
    PASSED: "passed",
    FAILED: "not passed",
    NO_SHOW: "missed",
    PENDING: "pending",
  };
  return words[outcome] ?? outcome.toLowerCase();
}
