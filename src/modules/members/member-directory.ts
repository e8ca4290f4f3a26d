import type { Headquarters } from "../../config";
import type {
  DirectoryBarangay,
  DirectoryLocations,
  DirectoryMunicipality,
  DirectoryProvince,
  DirectoryRegion,
} from "./member-directory.type";
import type { LocationCount } from "./member-public.repository";

interface Node {
  memberCount: number;
  children: Map<string, Node>;
}

const node = (): Node => ({ memberCount: 0, children: new Map() });

/** Most members first; equal counts by name, so the answer is the same for the same data. */
function ordered(children: Map<string, Node>): [string, Node][] {
  return [...children].sort(
    ([nameA, a], [nameB, b]) => b.memberCount - a.memberCount || nameA.localeCompare(nameB),
  );
}

const leaves = (at: Node, depth: number): number =>
  depth === 0
    ? at.children.size
    : [...at.children.values()].reduce((n, c) => n + leaves(c, depth - 1), 0);

/**
 * The client's directory (GET /members/public/directory-locations) from the per-barangay counts the
 * database made: one row per place, never per member. A record without a region counts in
 * `totalMembers` only.
 */
export function directoryOf(
  rows: readonly LocationCount[],
  headquarters: Headquarters,
): DirectoryLocations {
  const root = node();
  let totalMembers = 0;
  for (const row of rows) {
    totalMembers += row.memberCount;
    const region = row.region?.trim();
    if (!region) continue;
    let at = root;
    at.memberCount += row.memberCount;
    for (const name of [region, row.province, row.municipalityCity, row.barangay]) {
      const key = name?.trim() ?? "";
      const child = at.children.get(key) ?? node();
      at.children.set(key, child);
      child.memberCount += row.memberCount;
      at = child;
    }
  }
  const barangays = (at: Node): DirectoryBarangay[] =>
    ordered(at.children).map(([barangay, b]) => ({ barangay, memberCount: b.memberCount }));
  const municipalities = (at: Node): DirectoryMunicipality[] =>
    ordered(at.children).map(([municipalityCity, m]) => ({
      municipalityCity,
      memberCount: m.memberCount,
      barangayCount: m.children.size,
      barangays: barangays(m),
    }));
  const provinces = (at: Node): DirectoryProvince[] =>
    ordered(at.children).map(([province, p]) => ({
      province,
      memberCount: p.memberCount,
      municipalityCount: p.children.size,
      barangayCount: leaves(p, 1),
      municipalities: municipalities(p),
    }));
  const regionLocations: DirectoryRegion[] = ordered(root.children).map(([region, r]) => ({
    region,
    memberCount: r.memberCount,
    provinceCount: r.children.size,
    municipalityCount: leaves(r, 1),
    barangayCount: leaves(r, 2),
    provinces: provinces(r),
  }));
  return {
    summary: {
      totalMembers,
      membersWithRegion: root.memberCount,
      regionsRepresented: root.children.size,
      provincesRepresented: leaves(root, 1),
      municipalitiesRepresented: leaves(root, 2),
      barangaysRepresented: leaves(root, 3),
    },
    headquarters: { ...headquarters },
    regionLocations,
  };
}
