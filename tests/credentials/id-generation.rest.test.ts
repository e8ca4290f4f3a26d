import { approvedMemberOf, applyAs, bearer, buildUser } from "../support/factories";
import { useScenario } from "../support/scenario";

const scenario = useScenario();
const api = () => scenario().app.http();
const path = "/api/v1/members/current/id-generation";

describe("ID generation before the payment is verified", () => {
  it("answers null without an application and no asset before rendering", async () => {
    const { app, admin } = scenario();
    const nobody = await buildUser(app);
    const none = await api().get(path).set(bearer(nobody));
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ code: "OK", data: null });

    const member = await approvedMemberOf(app, admin);
    const before = await api().get(path).set(bearer(member.user));
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ asset: null });
  });

  it("refuses to render (409) for an unapproved application or an unverified payment, storing nothing", async () => {
    const { app, admin } = scenario();
    const pending = await buildUser(app);
    await applyAs(app, pending);
    const refused = await api()
      .put(path)
      .set(bearer(pending))
      .send({ certificateUrl: "https://evil.example/x.pdf" });
    expect(refused.status).toBe(409);

    const member = await approvedMemberOf(app, admin);
    const unpaid = await api().put(path).set(bearer(member.user)).send({});
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.code).toBe("CONFLICT");
    expect(
      await app.connection.model("Credential").countDocuments({ userId: member.user.id }),
    ).toBe(0);
    expect((await api().get(path).set(bearer(member.user))).body.data.asset).toBeNull();
    expect((await api().put(path).send({})).status).toBe(401);
  });
});
