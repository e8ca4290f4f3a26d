import { Readable } from "node:stream";
import type { Caller } from "../../src/modules/auth/caller";
import type { FilePurpose, FileView } from "../../src/modules/files/file-refs";
import type { UserRecord } from "../../src/modules/users/user.model";
import type { Services } from "../../src/services";

/** The seed acts as these accounts, as a request signed in as them would. */
export type DemoCaller = Caller;

export const callerOf = (user: UserRecord): DemoCaller => ({
  id: user._id,
  role: user.role,
  sessionId: "seed-demo",
  user,
  authenticatedAt: new Date(),
});

/** Stores a made-up picture as `caller`'s upload, through the service POST /files uses. */
export async function uploadAs(
  services: Services,
  caller: DemoCaller,
  purpose: FilePurpose,
  name: string,
  make: () => Promise<Buffer>,
): Promise<FileView> {
  const bytes = await make();
  const owner = { id: caller.id, role: caller.role, isEmailVerified: caller.user.isEmailVerified };
  return services.files.upload(owner, async (receive) => ({
    purpose,
    received: await receive(Readable.from([bytes]), name, purpose),
  }));
}
