import { BARANGAYS, REGIONS, STREETS } from "./places";
import { CHURCHES, FIRST_NAMES, LAST_NAMES, POSITIONS } from "./people";
import type { Random } from "./random";

/** One made-up Filipino person and where they live: the fields of a record agree with it. */
export interface Persona {
  firstName: string;
  middleName: string;
  lastName: string;
  gender: "MALE" | "FEMALE";
  region: string;
  province: string;
  town: string;
  barangay: string;
  street: string;
  church: string;
  position: string;
}

export function personaOf(random: Random): Persona {
  const gender = random.pick(["MALE", "FEMALE"] as const);
  const region = random.pick(REGIONS);
  const province = random.pick(region.provinces);
  return {
    firstName: random.pick(FIRST_NAMES[gender]),
    middleName: random.pick(LAST_NAMES),
    lastName: random.pick(LAST_NAMES),
    gender,
    region: region.name,
    province: province.name,
    town: random.pick(province.towns),
    barangay: random.pick(BARANGAYS),
    street: `${1 + random.int(300)} ${random.pick(STREETS)}`,
    church: random.pick(CHURCHES),
    position: random.pick(POSITIONS),
  };
}

export const fullName = (p: Persona) => `${p.firstName} ${p.lastName}`;

export const emailOf = (p: Persona) =>
  `${p.firstName}.${p.lastName}@example.org`
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z0-9.@]/g, "");
