import { fullNameOf, type MemberRecord } from "./member.model";

/** The columns of GET /members/export.csv, in order: header and how each cell is read. */
type Cell = string | number | Date | null | undefined;

const COLUMNS: [string, (record: MemberRecord) => Cell][] = [
  ["id", (r) => r._id],
  ["status", (r) => r.status],
  ["archived", (r) => (r.archivedAt ? "yes" : "no")],
  ["appliedAt", (r) => r.createdAt],
  ["firstName", (r) => r.firstName],
  ["middleInitial", (r) => r.middleInitial],
  ["lastName", (r) => r.lastName],
  ["extensionName", (r) => r.extensionName],
  ["fullName", (r) => fullNameOf(r)],
  ["email", (r) => r.searchEmail],
  ["mobilePhoneNumber", (r) => r.mobilePhoneNumber],
  ["civilStatus", (r) => r.civilStatus],
  ["gender", (r) => r.gender],
  ["dateOfBirth", (r) => r.dateOfBirth],
  ["nationality", (r) => r.nationality],
  ["homeAddress", (r) => r.homeAddress],
  ["barangay", (r) => r.barangay],
  ["municipalityCity", (r) => r.municipalityCity],
  ["province", (r) => r.province],
  ["region", (r) => r.region],
  ["churchAffiliation", (r) => r.churchAffiliation],
  ["currentPositionRole", (r) => r.currentPositionRole],
  ["sssNumber", (r) => r.sssNumber],
  ["tinNumber", (r) => r.tinNumber],
];

/**
 * The byte order mark first: Excel reads a CSV without one in the machine's legacy code page,
 * and "Niño" comes out garbled.
 */
export const CSV_BOM = "\uFEFF";

export const CSV_HEADER = `${COLUMNS.map(([name]) => name).join(",")}\r\n`;

export function csvRow(record: MemberRecord): string {
  return `${COLUMNS.map(([, read]) => csvCell(read(record))).join(",")}\r\n`;
}

/**
 * RFC 4180 quoting, and a leading apostrophe for text a spreadsheet would run as a formula
 * (CSV injection: a name sent as `=HYPERLINK(...)`).
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
