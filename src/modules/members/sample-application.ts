/**
 * One complete, plausible membership application (REQUIRED_TEXT_FIELDS in member.model.ts and the
 * rest): what tests and the benchmark send to POST /members/apply, and the OpenAPI document shows.
 */
export const SAMPLE_APPLICATION = {
  firstName: "Maria",
  lastName: "Santos",
  mobilePhoneNumber: "09171234567",
  homeAddress: "12 Mabini Street",
  civilStatus: "SINGLE",
  gender: "FEMALE",
  nationality: "Filipino",
  dateOfBirth: "1990-03-15T00:00:00.000Z",
  region: "Region VII (Central Visayas)",
  province: "Cebu",
  municipalityCity: "Cebu City",
  barangay: "Lahug",
  emergencyContactName: "Jose Santos",
  emergencyContactMobile: "09181234567",
  churchAffiliation: "Victory Christian Fellowship",
  churchAddress: "Cebu City",
  currentPositionRole: "Elder",
} as const;
