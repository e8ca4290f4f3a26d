import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import { createEventModel } from "./event.model";
import { EventRepository } from "./event.repository";
import { EventService } from "./event.service";

export interface EventsModuleOptions extends ModuleBase {
  /** The files module's port, asked on first use: event images are its files. */
  files: () => FileRefs;
}

/** Events of the organisation, shown on the public pages and to members. */
export function createEventsModule({ connection, files }: EventsModuleOptions) {
  const model = createEventModel(connection);
  return {
    services: { events: new EventService(new EventRepository(model), files) },
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
