/**
 * Issue 48's second browser test, as the organisation's site does it: from a page of the site's
 * own origin in headless Chromium (so every call crosses CORS), a member books the interview with
 * the site's fixed key `ptr-rodel`, and the public profile's JSON is read by uniqueId
 * (GET /members/public/{uniqueId}, no token) with its applicantRequirements and
 * officerAssignments lists, whose photo the page then draws.
 */
import type { Browser, Page } from "puppeteer-core";
import { chromiumPath, launchChromium } from "../support/chromium";
import { bearer, buildOffice, type TestUser } from "../support/factories";
import { startEsmSite, type EsmSite } from "../support/esm-site";
import { freePort } from "../support/free-port";
import { samplePhotoPng } from "../support/sample-photo";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { storageDir, upload } from "../support/file-samples";
import { approvedMember, choose } from "../support/profile-fixtures";

const storage = storageDir();

/** What the page's fetch got: it throws instead when CORS refuses the answer. */
interface PageAnswer {
  status: number;
  body: { data?: Record<string, unknown>; message?: string };
}

(chromiumPath ? describe : describe.skip)(
  "the site's interview and public profile in Chromium",
  () => {
    let site: EsmSite;
    let app: TestApp;
    let admin: TestUser;
    let browser: Browser;
    let page: Page;
    let api: string;
    const failures: string[] = [];

    beforeAll(async () => {
      site = await startEsmSite({
        host: "site.test",
        port: await freePort(),
        packages: [],
        page: "<p>The organisation's site</p>",
      });
      ({ app, admin } = await startScenario({
        env: { ...storage.env, CORS_ORIGINS: site.origin },
      }));
      api = `http://api.test:${new URL(app.url).port}/api/v1`;
      browser = await launchChromium(["site.test", "api.test"]);
      page = await browser.newPage();
      page.on("pageerror", (error) => failures.push(String(error)));
      await page.goto(`${site.origin}/`, { waitUntil: "networkidle0", timeout: 30_000 });
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await app?.close();
      await site?.close();
    });

    /** A fetch from the site's page: JSON with the member's Bearer, or none for public reads. */
    function fetchInPage(method: string, url: string, token?: string, body?: unknown) {
      return page.evaluate(
        async ({ method, url, token, body }) => {
          const headers: Record<string, string> = { accept: "application/json" };
          if (token) headers.authorization = `Bearer ${token}`;
          if (body !== undefined) headers["content-type"] = "application/json";
          const response = await fetch(url, {
            method,
            headers,
            // The public page is cached a minute: ask again with its ETag, so a read after a
            // change sees it (a 304 while nothing changed).
            cache: "no-cache",
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: response.status, body: await response.json() };
        },
        { method, url, token, body },
      ) as Promise<PageAnswer>;
    }

    it("books the interview with ptr-rodel as the site sends it", async () => {
      const member = await approvedMember(app, admin);
      const booked = await fetchInPage(
        "PUT",
        `${api}/members/current/online-interview`,
        member.user.token,
        { interviewerId: "ptr-rodel", day: "Saturday", timeSlot: "10:00 AM" },
      );
      expect(booked.status).toBe(200);
      expect(booked.body.data).toMatchObject({
        interviewerKey: "ptr-rodel",
        interviewerName: "Bishop Dr. Rodel Manzo",
        day: "SATURDAY",
        timeSlot: "10:00 AM",
        outcome: "PENDING",
      });
      // The next Saturday at least a day ahead, 10:00 in Manila (UTC+8).
      const at = new Date(String(booked.body.data!.scheduledAt));
      expect(at.getTime()).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);
      expect(at.getUTCDay()).toBe(6);
      expect(at.getUTCHours()).toBe(2);

      // The site reads the booking back the same way.
      const read = await fetchInPage(
        "GET",
        `${api}/members/current/online-interview`,
        member.user.token,
      );
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ interviewerKey: "ptr-rodel", timeSlot: "10:00 AM" });

      // A key the site does not offer: a 400 the site can show, its text as `message`.
      const unknown = await fetchInPage(
        "PUT",
        `${api}/members/current/online-interview`,
        member.user.token,
        { interviewerId: "ptr-nobody", day: "Sunday", timeSlot: "10:00 AM" },
      );
      expect(unknown.status).toBeGreaterThanOrEqual(400);
      expect(unknown.status).toBeLessThan(500);
      expect(unknown.body.message).toMatch(/interviewer/i);
      expect(failures).toEqual([]);
    }, 60_000);

    it("opens the public profile's JSON by uniqueId with applicantRequirements and officerAssignments", async () => {
      const member = await approvedMember(app, admin);
      // Fresh from approval: the lists are there, empty.
      const empty = await fetchInPage("GET", `${api}/members/public/${member.uniqueId}`);
      expect(empty.status).toBe(200);
      expect(empty.body.data).toMatchObject({
        uniqueId: member.uniqueId,
        applicantRequirements: [],
        officerAssignments: [],
      });

      // An approved 2x2 photo the member shows, and an office held.
      const photo = await upload(app, member.user, samplePhotoPng(), {
        purpose: "REQUIREMENT",
        filename: "photo-2x2.png",
        contentType: "image/png",
      });
      expect(photo.status).toBe(201);
      await app
        .http()
        .put("/api/v1/members/current/requirements")
        .set(bearer(member.user))
        .send({ attachments: [{ type: "PHOTO_2X2", fileId: photo.body.data.id }] })
        .expect(200);
      await app
        .http()
        .patch(`/api/v1/members/${member.id}/requirements/PHOTO_2X2`)
        .set(bearer(admin))
        .send({ reviewStatus: "APPROVED" })
        .expect(200);
      await choose(app, member.user, { listed: true, showPhoto: true });
      const office = await buildOffice(app, admin, { level: "CITY_CHAPLAIN" });
      const place = {
        department: "Cebu City Medical Center",
        region: "Central Visayas",
        province: "Cebu",
        cityMunicipality: "Cebu City",
        barangay: "Pahina Central",
      };
      const appointed = await app
        .http()
        .post(`/api/v1/offices/${office.id}/holders`)
        .set(bearer(admin))
        .send({ memberId: member.id, startDate: "2026-01-05", ...place });
      expect(appointed.status).toBe(201);

      const shown = await fetchInPage("GET", `${api}/members/public/${member.uniqueId}`);
      expect(shown.status).toBe(200);
      const data = shown.body.data!;
      expect(data.applicantRequirements).toEqual([
        {
          id: expect.any(String),
          type: "PHOTO_2X2",
          fileUrl: expect.stringContaining(`/files/public/${photo.body.data.id}`),
          fileName: "photo-2x2.png",
          mimeType: "image/png",
          updatedAt: expect.any(String),
        },
      ]);
      expect(data.officerAssignments).toEqual([
        {
          id: appointed.body.data.id,
          officeTitle: { id: office.id, name: office.name, level: "CITY_CHAPLAIN" },
          startDate: "2026-01-05T00:00:00.000Z",
          ...place,
        },
      ]);
      // The page draws the photo from its link, on the site's origin.
      const [requirement] = data.applicantRequirements as { fileUrl: string }[];
      const width = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return image.naturalWidth;
      }, requirement.fileUrl);
      expect(width).toBe(360);

      // An unknown uniqueId: the public 404, readable by the site.
      const missing = await fetchInPage("GET", `${api}/members/public/PO-0000-000000`);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toEqual(expect.any(String));
      expect(failures).toEqual([]);
    }, 60_000);
  },
);
