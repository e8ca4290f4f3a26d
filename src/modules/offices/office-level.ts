import { registerEnumType } from "type-graphql";

/** The chaplaincy's hierarchy, highest first (the seed's order). */
export enum OfficeLevel {
  CHIEF_CHAPLAIN = "CHIEF_CHAPLAIN",
  NATIONAL_CHAPLAIN_DIRECTOR = "NATIONAL_CHAPLAIN_DIRECTOR",
  REGIONAL_CHAPLAIN_DIRECTOR = "REGIONAL_CHAPLAIN_DIRECTOR",
  REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR = "REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR",
  PROVINCIAL_CHAPLAIN_DIRECTOR = "PROVINCIAL_CHAPLAIN_DIRECTOR",
  PROVINCIAL_DEPUTY_CHAPLAIN_DIRECTOR = "PROVINCIAL_DEPUTY_CHAPLAIN_DIRECTOR",
  CITY_CHAPLAIN = "CITY_CHAPLAIN",
  MUNICIPAL_CHAPLAIN = "MUNICIPAL_CHAPLAIN",
  CITY_MUNICIPAL_DEPUTY_CHAPLAIN = "CITY_MUNICIPAL_DEPUTY_CHAPLAIN",
  BARANGAY_CHAPLAIN = "BARANGAY_CHAPLAIN",
  BARANGAY_DEPUTY_CHAPLAIN = "BARANGAY_DEPUTY_CHAPLAIN",
}

registerEnumType(OfficeLevel, {
  name: "OfficeLevel",
  description: "A rank in the chaplaincy's hierarchy; listed highest first",
});

const RANKS = new Map(Object.values(OfficeLevel).map((level, index) => [level, index]));

/** 0 for the highest level: ascending rank is the hierarchy from the top down. */
export function rankOf(level: OfficeLevel): number {
  return RANKS.get(level)!;
}
