/**
 * The Philippines' 17 administrative regions under the names the directory groups by (GET
 * /members/public/directory-locations), and the common ways applicants write them. Pure: no
 * database, no I/O.
 */
export const OFFICIAL_REGIONS = [
  "National Capital Region",
  "Cordillera Administrative Region",
  "Ilocos Region",
  "Cagayan Valley",
  "Central Luzon",
  "CALABARZON",
  "MIMAROPA",
  "Bicol Region",
  "Western Visayas",
  "Central Visayas",
  "Eastern Visayas",
  "Zamboanga Peninsula",
  "Northern Mindanao",
  "Davao Region",
  "SOCCSKSARGEN",
  "Caraga",
  "Bangsamoro Autonomous Region in Muslim Mindanao",
] as const;

export type OfficialRegion = (typeof OFFICIAL_REGIONS)[number];

/** Each region's usual names besides the official one, written as `keyOf` reduces them. */
const OTHER_NAMES: Record<OfficialRegion, string[]> = {
  "National Capital Region": ["ncr", "metro manila", "metropolitan manila", "manila"],
  "Cordillera Administrative Region": ["car", "cordillera"],
  "Ilocos Region": ["region 1", "ilocos"],
  "Cagayan Valley": ["region 2", "cagayan"],
  "Central Luzon": ["region 3"],
  CALABARZON: ["region 4a", "southern tagalog mainland"],
  MIMAROPA: ["region 4b", "southwestern tagalog region", "mimaropa region"],
  "Bicol Region": ["region 5", "bicol", "bicolandia"],
  "Western Visayas": ["region 6"],
  "Central Visayas": ["region 7"],
  "Eastern Visayas": ["region 8"],
  "Zamboanga Peninsula": ["region 9", "zamboanga", "western mindanao"],
  "Northern Mindanao": ["region 10"],
  "Davao Region": ["region 11", "davao"],
  SOCCSKSARGEN: ["region 12", "central mindanao", "soccsksargen region"],
  Caraga: ["region 13", "caraga region"],
  "Bangsamoro Autonomous Region in Muslim Mindanao": [
    "barmm",
    "armm",
    "bangsamoro",
    "autonomous region in muslim mindanao",
  ],
};

const ROMAN: Record<string, string> = {
  i: "1",
  ii: "2",
  iii: "3",
  iv: "4",
  v: "5",
  vi: "6",
  vii: "7",
  viii: "8",
  ix: "9",
  x: "10",
  xi: "11",
  xii: "12",
  xiii: "13",
};

/**
 * A name reduced to compare: lower case, punctuation as spaces, "Region IV-A" and "Region 4A"
 * alike as "region 4a", "Region XI" and "Region 11" alike as "region 11".
 */
function keyOf(name: string): string {
  let key = name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  key = key.replace(/^region ([ivx]+|\d+) ?([ab])?$/, (_all, number: string, letter?: string) => {
    const arabic = ROMAN[number] ?? number;
    return `region ${arabic}${letter ?? ""}`;
  });
  return key;
}

const BY_KEY = new Map<string, OfficialRegion>();
for (const official of OFFICIAL_REGIONS) {
  BY_KEY.set(keyOf(official), official);
  for (const other of OTHER_NAMES[official]) BY_KEY.set(keyOf(other), official);
}

/**
 * The official name of a region as written, or null when it is not one this table knows.
 * Also takes the forms that name both ("Region VII (Central Visayas)", "NCR - Metro Manila").
 */
export function officialRegion(name: string): OfficialRegion | null {
  const whole = BY_KEY.get(keyOf(name));
  if (whole) return whole;
  // "Region VII (Central Visayas)", "CALABARZON (Region IV-A)", "NCR - Metro Manila": every
  // part must name the same region, so a contradictory pair is left as given.
  const parts = name
    .split(/[()–—]|\s-\s|,|\//)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length < 2) return null;
  const found = new Set(parts.map((part) => BY_KEY.get(keyOf(part)) ?? null));
  if (found.size !== 1 || found.has(null)) return null;
  return [...found][0];
}

/** The region as stored: its official name when known, else as given (trimmed). */
export function canonicalRegion(name: string): string {
  return officialRegion(name) ?? name.trim();
}
