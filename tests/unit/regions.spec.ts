import {
  OFFICIAL_REGIONS,
  canonicalRegion,
  officialRegion,
} from "../../src/modules/members/regions";

describe("official region names", () => {
  it("are the 17 regions, each once", () => {
    expect(OFFICIAL_REGIONS).toHaveLength(17);
    expect(new Set(OFFICIAL_REGIONS).size).toBe(17);
  });

  it("each official name maps to itself, whatever its case and spacing", () => {
    for (const region of OFFICIAL_REGIONS) {
      expect(officialRegion(region)).toBe(region);
      expect(officialRegion(`  ${region.toUpperCase()} `)).toBe(region);
    }
  });

  it.each([
    ["NCR", "National Capital Region"],
    ["Metro Manila", "National Capital Region"],
    ["NCR - Metro Manila", "National Capital Region"],
    ["CAR", "Cordillera Administrative Region"],
    ["Region I", "Ilocos Region"],
    ["Region 2", "Cagayan Valley"],
    ["Region III", "Central Luzon"],
    ["Region IV-A", "CALABARZON"],
    ["Region 4A", "CALABARZON"],
    ["region 4-a", "CALABARZON"],
    ["Calabarzon", "CALABARZON"],
    ["CALABARZON (Region IV-A)", "CALABARZON"],
    ["Region IV-B", "MIMAROPA"],
    ["Mimaropa", "MIMAROPA"],
    ["Region V", "Bicol Region"],
    ["Region VI", "Western Visayas"],
    ["Region VII (Central Visayas)", "Central Visayas"],
    ["Region 8", "Eastern Visayas"],
    ["Region IX", "Zamboanga Peninsula"],
    ["Region X", "Northern Mindanao"],
    ["Region XI", "Davao Region"],
    ["Region 11", "Davao Region"],
    ["Region XII", "SOCCSKSARGEN"],
    ["Region XIII", "Caraga"],
    ["BARMM", "Bangsamoro Autonomous Region in Muslim Mindanao"],
    ["ARMM", "Bangsamoro Autonomous Region in Muslim Mindanao"],
  ])("%s → %s", (given, official) => {
    expect(officialRegion(given)).toBe(official);
    expect(canonicalRegion(given)).toBe(official);
  });

  it("keeps a name it does not know as given, trimmed", () => {
    expect(officialRegion("Atlantis")).toBeNull();
    expect(canonicalRegion("  Atlantis ")).toBe("Atlantis");
    expect(canonicalRegion("Region IV")).toBe("Region IV");
    expect(canonicalRegion("Region XIV")).toBe("Region XIV");
  });

  it("leaves a form that names two different regions as given", () => {
    expect(officialRegion("Region VII (Western Visayas)")).toBeNull();
    expect(canonicalRegion("NCR / CAR")).toBe("NCR / CAR");
  });
});
