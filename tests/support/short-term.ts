import { approvedMemberOf, bearer, buildOffice, type TestUser } from "./factories";
import type { TestApp } from "./test-app";

/**
 * The time the offices module reads: the app's clock, which a test moves past an end date
 * (`app.internals.clock.advance`) instead of sleeping, and so may be ahead of Date.now().
 */
export function officesNow(app: TestApp): Date {
  return app.internals.clock.unshifted().now();
}

/**
 * A one-slot office title held by a fresh approved member for a term that ends `endsInMs`
 * after the app's now (through POST /offices/{id}/holders; fails the test on anything but 201).
 */
export async function shortTermHolder(app: TestApp, admin: TestUser, endsInMs: number) {
  const office = await buildOffice(app, admin, { maxSlots: 1 });
  const member = await approvedMemberOf(app, admin);
  const response = await app
    .http()
    .post(`/api/v1/offices/${office.id}/holders`)
    .set(bearer(admin))
    .send({
      memberId: member.id,
      startDate: "2024-01-01T00:00:00.000Z",
      endDate: new Date(officesNow(app).getTime() + endsInMs).toISOString(),
    });
  if (response.status !== 201) {
    throw new Error(`appoint: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return { office, member, holderId: (response.body as { data: { id: string } }).data.id };
}
