import type { Clock } from "../../clock";
import type { PublicFileRule } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import { NewsReferences, type NewsReferencesDeps } from "./news-references";
import { createNewsPostModel } from "./news.model";
import { NewsRepository } from "./news.repository";
import { NewsService } from "./news.service";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";

export interface NewsModuleDeps extends NewsReferencesDeps {
  /** Where changes the site shows are told (webhooks module). */
  changes?: ChangeFeed;
}

export interface NewsModuleOptions extends ModuleBase {
  /** Asked on use: media are the files module's, tagged members the members module's. */
  deps: () => NewsModuleDeps;
  /** When a scheduled post comes out. */
  clock: Clock;
}

/** News posts and blogs, shown on the public pages once published. */
export function createNewsModule({ connection, deps, clock }: NewsModuleOptions) {
  const model = createNewsPostModel(connection);
  const news = new NewsService(
    new NewsRepository(model),
    new NewsReferences(deps),
    () => clock.now(),
    () => deps().changes ?? NO_CHANGE_FEED,
  );
  return {
    services: { news },
    /** For the files module: news media are public while a post that is out shows them. */
    publicFileRule: ((file) =>
      file.purpose === "NEWS_MEDIA"
        ? news.showsPublicly(file.id)
        : Promise.resolve(false)) satisfies PublicFileRule,
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
