import { NewsStatus } from "../../src/modules/news/news.enums";
import {
  EventCategory,
  EventSortBy,
  EventStatus,
  EventType,
  EventVisibility,
  MeetingPlatform,
} from "../../src/modules/events/event.enums";
import { SortOrder } from "../../src/modules/offices/office.input";
import type { Services } from "../../src/services";
import { bannerPng } from "./demo-images";
import { uploadAs, type DemoCaller } from "./demo-callers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What the site's home page and events page show: upcoming and past, on site and online. */
const EVENTS = [
  {
    name: "Chaplains' National Convention 2027",
    category: EventCategory.CONFERENCE,
    type: EventType.ONSITE,
    location: "Waterfront Cebu City Hotel, Salinas Drive, Lahug, Cebu City",
    description:
      "Two days of workshops, worship and the commissioning of new associate chaplains from every region.",
    organizer: "National Chaplain Directorate",
    demo: { inDays: 45, hours: 30, colours: ["#0b3d91", "#1f8a70"] },
  },
  {
    name: "Hospital Chaplaincy Orientation",
    category: EventCategory.ORIENTATION,
    type: EventType.ONLINE,
    onlineLink: "https://zoom.us/j/83412245678",
    meetingPlatform: MeetingPlatform.ZOOM,
    meetingId: "834 1224 5678",
    meetingPassword: "Pearl2027",
    description:
      "What a chaplain does on a hospital ward: visiting the sick, working beside nurses and doctors, and the patient's consent.",
    organizer: "Formation Office",
    demo: { inDays: 10, hours: 3, colours: ["#6a1b9a", "#d81b60"] },
  },
  {
    name: "Feeding Program and Prayer Walk in Tondo",
    category: EventCategory.OUTREACH,
    type: EventType.ONSITE,
    location: "Barangay 105 covered court, Tondo, Manila",
    description: "Hot meals for 300 children and a prayer walk with the barangay's volunteers.",
    organizer: "NCR Regional Chaplain Directorate",
    demo: { inDays: 18, hours: 5, colours: ["#e65100", "#f9a825"] },
  },
  {
    name: "Trauma-Informed Care Seminar",
    category: EventCategory.SEMINAR,
    type: EventType.ONSITE,
    location: "SMX Convention Center Davao, Lanang, Davao City",
    description: "Speaking with survivors of disasters and violence without harming them again.",
    organizer: "Davao Region Chaplain Directorate",
    demo: { inDays: -20, hours: 8, colours: ["#004d40", "#26a69a"] },
  },
  {
    name: "Day of Prayer for the Uniformed Services",
    category: EventCategory.PRAYER,
    type: EventType.ONSITE,
    location: "Camp Aguinaldo Chapel, Quezon City",
    description: "Prayer for soldiers, police officers, firefighters and their families.",
    organizer: "Chief Chaplain's Office",
    demo: { inDays: -60, hours: 4, colours: ["#1b5e20", "#558b2f"] },
  },
  {
    name: "Regional Directors' Planning Meeting",
    category: EventCategory.OTHER,
    type: EventType.ONLINE,
    onlineLink: "https://meet.google.com/pqr-stuv-wxy",
    meetingPlatform: MeetingPlatform.GOOGLE_MEET,
    meetingId: "pqr-stuv-wxy",
    description:
      "The year's plan of the regional directorates (for officers; not on the public pages).",
    organizer: "National Chaplain Directorate",
    visibility: EventVisibility.PRIVATE,
    demo: { inDays: 5, hours: 2, colours: ["#37474f", "#78909c"] },
  },
] as const;

/** News: published posts tag members; a draft waits for an administrator. */
const NEWS = [
  {
    title: "42 new associate chaplains take their oath in Cebu",
    caption:
      "<p>Forty-two chaplains from the Visayas took their oath on Saturday at the <strong>Cebu Provincial Capitol</strong>.</p><p>Congratulations and welcome!</p>",
    status: NewsStatus.PUBLISHED,
    platform: "WEBSITE",
    hashtags: ["PearlChaplaincy", "OathTaking"],
    demo: { daysAgo: 3, colours: ["#0b3d91", "#64b5f6"] },
  },
  {
    title: "Chaplains serve evacuees after Typhoon Kristine in Bicol",
    caption:
      "<p>Our Bicol chaplains stayed with families in the evacuation centres of <em>Naga City</em> and Legazpi, giving psychological first aid and prayer.</p>",
    status: NewsStatus.PUBLISHED,
    platform: "FACEBOOK",
    hashtags: ["DisasterResponse", "Bicol"],
    demo: { daysAgo: 12, colours: ["#263238", "#4fc3f7"] },
  },
  {
    title: "Registration for the 2027 National Convention is open",
    caption:
      "<p>Register through your regional director before the end of the month. The convention fee covers meals and materials.</p>",
    status: NewsStatus.PUBLISHED,
    platform: "WEBSITE",
    hashtags: ["Convention2027"],
    demo: { daysAgo: 20, colours: ["#1f8a70", "#b2dfdb"] },
  },
  {
    title: "Draft: the year in review",
    caption: "<p>What our chaplains did this year, region by region (to be completed).</p>",
    status: NewsStatus.DRAFT,
    platform: "WEBSITE",
    hashtags: ["YearInReview"],
    demo: { daysAgo: 0, colours: ["#5d4037", "#a1887f"] },
  },
] as const;

const paging = { page: 1, limit: 100, sortBy: EventSortBy.startsAt, sortOrder: SortOrder.asc };

/** Creates the demo events not there yet (by name), each with its picture; says how many. */
export async function seedDemoEvents(services: Services, admin: DemoCaller): Promise<number> {
  let added = 0;
  for (const event of EVENTS) {
    const { demo, ...fields } = event;
    const found = await services.events.list({ ...paging, search: event.name });
    if (found.items.some((existing) => existing.name === event.name)) continue;
    const picture = await uploadAs(services, admin, "EVENT_IMAGE", `${event.name}.png`, () =>
      bannerPng(event.name, demo.colours[0], demo.colours[1]),
    );
    // On the hour, as an organiser would set it; past ones are over.
    const startsAt = new Date(Math.round((Date.now() + demo.inDays * DAY) / HOUR) * HOUR);
    await services.events.create(admin.id, {
      ...fields,
      thumbnailUrl: picture.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + demo.hours * HOUR),
      status: demo.inDays < 0 ? EventStatus.COMPLETED : EventStatus.SCHEDULED,
      visibility: "visibility" in event ? event.visibility : EventVisibility.PUBLIC,
    });
    added += 1;
  }
  return added;
}

/** Creates the demo news posts not there yet (by title), tagging the members given. */
export async function seedDemoNews(
  services: Services,
  admin: DemoCaller,
  taggedMembers: string[],
): Promise<number> {
  let added = 0;
  for (const [index, post] of NEWS.entries()) {
    const { demo, ...fields } = post;
    const found = await services.news.list({ page: 1, limit: 100, search: post.title });
    if (found.items.some((existing) => existing.title === post.title)) continue;
    const picture = await uploadAs(services, admin, "NEWS_MEDIA", `news-${index + 1}.png`, () =>
      bannerPng(post.title, demo.colours[0], demo.colours[1]),
    );
    await services.news.create(admin.id, {
      ...fields,
      hashtags: [...post.hashtags],
      media: [picture.id],
      publishedAt:
        post.status === NewsStatus.PUBLISHED ? new Date(Date.now() - demo.daysAgo * DAY) : null,
      taggedMembers:
        post.status === NewsStatus.PUBLISHED ? taggedMembers.slice(index, index + 2) : [],
    });
    added += 1;
  }
  return added;
}
