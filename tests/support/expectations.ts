import net from "node:net";

/** Ids the service generates: UUID v7. */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A well-formed id no record has. */
export const UNKNOWN_ID = "01890a5d-ac96-774b-bcce-b302099a8057";

/** Exactly what a User may show: the account's own fields, mfaEnabled and memberProfile. */
export const PUBLIC_USER_KEYS = [
  "accountStatus",
  "avatar",
  "createdAt",
  "email",
  "id",
  "isEmailVerified",
  "isTwoFactorEnabled",
  "memberProfile",
  "mfaEnabled",
  "name",
  "role",
  "updatedAt",
];

/** Strings that would mean a hash or secret leaked into a response ("$2" starts a bcrypt hash). */
export const SECRET_MARKERS = [
  "passwordHash",
  "$2",
  "verificationCodeHash",
  "resetTokenHash",
  "mfaSecret",
  "refreshTokenHash",
];

/** A port nothing listens on: bind an ephemeral port, then let it go. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
