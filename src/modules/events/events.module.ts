import type { FileRefs, PublicFileRule } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import { createEventModel } from "./event.model";
import { EventRepository } from "./event.repository";
import { EventService } from "./event.service";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";

export interface EventsModuleDeps {
  /** The files module's port: event images are its files. */
  files: FileRefs;
  /** Where changes the site shows are told (webhooks module). */
  changes?: ChangeFeed;
}

export interface EventsModuleOptions extends ModuleBase {
  /** Asked on use: the webhooks module is built after this one. */
  deps: () => EventsModuleDeps;
}

/** Events of the organisation, shown on the public pages and to members. */
export function createEventsModule({ connection, deps }: EventsModuleOptions) {
  const model = createEventModel(connection);
  const repository = new EventRepository(model);
  const events = new EventService(
    repository,
    () => deps().files,
    () => deps().changes ?? NO_CHANGE_FEED,
  );
  return {
    services: { events },
    /** For the files module: an event's image is public while a PUBLIC event shows it. */
    publicFileRule: ((file) =>
      file.purpose === "EVENT_IMAGE"
        ? repository.showsPublicly(file.id)
        : Promise.resolve(false)) satisfies PublicFileRule,
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
