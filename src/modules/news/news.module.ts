import type { ModuleBase, ModuleParts } from "../module";
import { NewsReferences, type NewsReferencesDeps } from "./news-references";
import { createNewsPostModel } from "./news.model";
import { NewsRepository } from "./news.repository";
import { NewsService } from "./news.service";

export interface NewsModuleOptions extends ModuleBase {
  /** Asked on first use: media are the files module's, tagged members the members module's. */
  deps: () => NewsReferencesDeps;
}

/** News posts and blogs, shown on the public pages once published. */
export function createNewsModule({ connection, deps }: NewsModuleOptions) {
  const model = createNewsPostModel(connection);
  return {
    services: { news: new NewsService(new NewsRepository(model), new NewsReferences(deps)) },
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
