import type { Connection } from "mongoose";
import { uuidv7 } from "../../src/db/uuid";
import { OfficeLevel, rankOf } from "../../src/modules/offices/office-level";
import { oneOf } from "../../src/db/operators";
import { searchableText } from "../../src/db/search-text";
import { createMemberModel } from "../../src/modules/members/member.model";
import { createOfficeHolderModel, runningKey } from "../../src/modules/offices/office-holder.model";
import { createOfficeModel, type OfficeRecord } from "../../src/modules/offices/office.model";
import type { SectionType } from "../../src/modules/sections/section.type";
import { REGIONS } from "../../src/mock/places";

/** An APPROVED, not archived demo member who may be appointed. */
export interface DemoAppointee {
  memberId: string;
  userId: string;
  name: string;
}

interface DemoOffice {
  name: string;
  level: OfficeLevel;
  maxSlots: number | null;
  scope: string;
}

/** The hierarchy as an organisation would staff it: one chief, then each region and province. */
function demoOffices(): DemoOffice[] {
  const offices: DemoOffice[] = [
    { name: "Chief Chaplain", level: OfficeLevel.CHIEF_CHAPLAIN, maxSlots: 1, scope: "the nation" },
    {
      name: "National Chaplain Director",
      level: OfficeLevel.NATIONAL_CHAPLAIN_DIRECTOR,
      maxSlots: 3,
      scope: "the nation",
    },
  ];
  for (const region of REGIONS) {
    const scope = region.name;
    offices.push(
      {
        name: `Regional Chaplain Director, ${scope}`,
        level: OfficeLevel.REGIONAL_CHAPLAIN_DIRECTOR,
        maxSlots: 1,
        scope,
      },
      {
        name: `Regional Deputy Chaplain Director, ${scope}`,
        level: OfficeLevel.REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR,
        maxSlots: 2,
        scope,
      },
    );
    for (const province of region.provinces) {
      offices.push(
        {
          name: `Provincial Chaplain Director, ${province.name}`,
          level: OfficeLevel.PROVINCIAL_CHAPLAIN_DIRECTOR,
          maxSlots: 1,
          scope: province.name,
        },
        {
          name: `Provincial Deputy Chaplain Director, ${province.name}`,
          level: OfficeLevel.PROVINCIAL_DEPUTY_CHAPLAIN_DIRECTOR,
          maxSlots: 2,
          scope: province.name,
        },
      );
      for (const town of province.towns) {
        const city = town.endsWith("City");
        offices.push({
          name: `${city ? "City" : "Municipal"} Chaplain, ${town} (${province.name})`,
          level: city ? OfficeLevel.CITY_CHAPLAIN : OfficeLevel.MUNICIPAL_CHAPLAIN,
          maxSlots: 1,
          scope: town,
        });
      }
    }
  }
  offices.push(
    {
      name: "City/Municipal Deputy Chaplain",
      level: OfficeLevel.CITY_MUNICIPAL_DEPUTY_CHAPLAIN,
      maxSlots: null,
      scope: "any city or municipality",
    },
    {
      name: "Barangay Chaplain",
      level: OfficeLevel.BARANGAY_CHAPLAIN,
      maxSlots: null,
      scope: "a barangay",
    },
    {
      name: "Barangay Deputy Chaplain",
      level: OfficeLevel.BARANGAY_DEPUTY_CHAPLAIN,
      maxSlots: null,
      scope: "a barangay",
    },
  );
  return offices;
}

/**
 * Creates the office titles that do not exist yet and appoints demo members to them: every
 * limited office of the new ones gets holders up to its slots while appointees last, the
 * unlimited ones a dozen each.
 */
export async function seedDemoOffices(
  connection: Connection,
  appointees: DemoAppointee[],
  appointedBy: string,
): Promise<{ offices: number; holders: number }> {
  const offices = createOfficeModel(connection);
  const holders = createOfficeHolderModel(connection);
  await Promise.all([offices.init(), holders.init()]);
  const wanted = demoOffices();
  const existing = new Set(
    (
      await offices
        .find({ nameKey: oneOf(wanted.map((office) => office.name.toLowerCase())) }, { nameKey: 1 })
        .lean()
    ).map((office) => office.nameKey),
  );
  const now = Date.now();
  const created: OfficeRecord[] = wanted
    .filter((office) => !existing.has(office.name.toLowerCase()))
    .map((office) => ({
      _id: uuidv7(),
      name: office.name,
      nameKey: office.name.toLowerCase(),
      level: office.level,
      levelRank: rankOf(office.level),
      description: `Serves ${office.scope}.`,
      searchText: searchableText(office.name, `Serves ${office.scope}.`),
      maxSlots: office.maxSlots,
      activeHolders: 0,
      slotsChangedAt: null,
      sections: [
        {
          _id: uuidv7(),
          title: "Duties",
          type: "list" as SectionType,
          items: [
            { content: "Pastoral care for the chaplains under this office" },
            { content: "Reports to the next office up the hierarchy" },
          ],
        },
      ],
      createdAt: new Date(now),
      updatedAt: new Date(now),
    }));

  const queue = [...appointees];
  const appointments = created.flatMap((office) => {
    const staff = queue.splice(0, office.maxSlots ?? 12);
    // Written straight to the database, so the counts appointments keep are set here.
    office.activeHolders = staff.length;
    return staff.map((appointee) => ({
      _id: uuidv7(),
      officeId: office._id,
      memberId: appointee.memberId,
      userId: appointee.userId,
      name: appointee.name,
      startDate: new Date(now - 180 * 86_400_000),
      endDate: null,
      endedAt: null,
      appointedBy,
      endedBy: null,
      releasedAt: null,
      slotKey: runningKey(office._id, appointee.memberId),
      createdAt: new Date(now),
      updatedAt: new Date(now),
    }));
  });
  if (created.length > 0) await offices.insertMany(created, { lean: true });
  if (appointments.length > 0) {
    await holders.insertMany(appointments, { lean: true });
    // Each appointee holds one office: its record counts it, so it cannot be archived meanwhile.
    await createMemberModel(connection).updateMany(
      { _id: oneOf(appointments.map((appointment) => appointment.memberId)) },
      { $inc: { activeOffices: 1 } },
    );
  }
  return { offices: created.length, holders: appointments.length };
}
