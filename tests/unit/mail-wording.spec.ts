/**
 * What a member reads: decisions in plain words (never "Payment VERIFIED" or "CLEARANCE_NBI"),
 * one way of writing a day (Asia/Manila, "5 December 2026"), and an oath mail that ends the
 * onboarding instead of asking to continue it.
 */
import { calendarDay, manilaDate } from "../../src/mail/dates";
import {
  oathTakenMail,
  paymentDecisionMail,
  requirementReviewMail,
} from "../../src/mail/onboarding-templates";
import {
  applicationWords,
  documentName,
  outcomeWords,
  paymentWords,
  reviewWords,
} from "../../src/mail/status-words";
import { describeSlot } from "../../src/modules/interviews/interview-calendar";

const recipient = {
  to: "maria@example.org",
  name: "Maria L. Santos",
  appUrl: "https://site.example",
};
const ENUM = /\b[A-Z]{2,}_[A-Z_0-9]+\b|\b(APPROVED|REJECTED|VERIFIED|PENDING|SUBMITTED)\b/;

describe("decisions in plain words", () => {
  it("names documents and decisions as people say them", () => {
    expect(documentName("CLEARANCE_NBI")).toBe("NBI clearance");
    expect(documentName("PHOTO_2X2")).toBe("2x2 photo");
    expect(paymentWords("VERIFIED")).toBe("was verified");
    expect(paymentWords("REJECTED")).toBe("was not verified");
    expect(reviewWords("APPROVED")).toBe("was accepted");
    expect(applicationWords("REJECTED")).toBe("was not approved");
    expect(outcomeWords("NO_SHOW")).toBe("missed");
  });

  it("keeps enums out of the review and payment mails", () => {
    for (const reviewStatus of ["APPROVED", "REJECTED", "PENDING"]) {
      const mail = requirementReviewMail({
        ...recipient,
        type: "CLEARANCE_NBI",
        reviewStatus,
        note: null,
      });
      expect(mail.subject).toMatch(/^Your NBI clearance (was|is) /);
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(ENUM);
    }
    for (const status of ["VERIFIED", "REJECTED"]) {
      const mail = paymentDecisionMail({
        ...recipient,
        status,
        note: null,
        amount: 500,
        currency: "PHP",
      });
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(ENUM);
      expect(mail.text).toContain("Open https://site.example to continue your onboarding.");
    }
  });
});

describe("one way of writing a day", () => {
  it("writes an instant's day in Manila and a booked day with its weekday", () => {
    // Still the 4th in UTC, the 5th in Manila.
    expect(manilaDate(new Date("2026-12-04T16:30:00.000Z"))).toBe("5 December 2026");
    expect(calendarDay("2026-12-05")).toBe("Saturday, 5 December 2026");
    expect(describeSlot("2026-12-05", "09:00 AM")).toBe(
      "Saturday, 5 December 2026 at 09:00 AM (Asia/Manila)",
    );
  });
});

describe("the oath mail", () => {
  it("says onboarding is complete, once, and asks nothing more to be continued", () => {
    const mail = oathTakenMail({
      ...recipient,
      uniqueId: "POI-2026-00042",
      takenAt: new Date("2026-12-04T16:30:00.000Z"),
      place: "Quezon City chapel",
      publicUrl: "https://site.example/profile/POI-2026-00042",
    });
    expect(mail.text).toContain("(5 December 2026, Quezon City chapel)");
    expect(mail.text.match(/Welcome!/g)).toHaveLength(1);
    expect(mail.text).not.toMatch(/continue/i);
    expect(mail.html).not.toMatch(/continue/i);
    expect(mail.text).toContain(
      "Open https://site.example for your member ID card and certificate.",
    );
    expect(mail.text.split("\n")[0]).toBe("Hello Maria L. Santos,");
  });
});
