import type { CommandStartedEvent, MongoClient } from "mongodb";
import type { Connection } from "mongoose";
import {
  queriesOf,
  shapeOf,
  type DeclaredIndex,
  type IndexesByCollection,
  type MonitoredCommand,
} from "./index-coverage";

/**
 * Keeps one example of every query shape a client sends (a test file sends the same few shapes
 * thousands of times), for the index-coverage guard. The client must monitor commands.
 */
export class CommandRecorder {
  private readonly examples = new Map<string, MonitoredCommand>();
  private readonly listener = (event: CommandStartedEvent): void => this.record(event);

  constructor(private readonly client: MongoClient) {
    client.on("commandStarted", this.listener);
  }

  commands(): MonitoredCommand[] {
    return [...this.examples.values()];
  }

  stop(): void {
    this.client.off("commandStarted", this.listener);
  }

  private record({ commandName, command }: CommandStartedEvent): void {
    const monitored = { commandName, command };
    const queries = queriesOf(monitored);
    if (queries.length === 0) return;
    const shape = JSON.stringify(
      queries.map((query) => ({ ...query, filter: shapeOf(query.filter) })),
    );
    if (!this.examples.has(shape)) this.examples.set(shape, monitored);
  }
}

/** The indexes the connection's models declare (path-level `unique` and `index` included). */
export function declaredIndexes(connection: Connection): IndexesByCollection {
  const byCollection = new Map<string, DeclaredIndex[]>();
  for (const model of Object.values(connection.models)) {
    const name = model.collection.collectionName;
    const declared = byCollection.get(name) ?? [];
    for (const [key, options] of model.schema.indexes()) {
      declared.push({ key, options });
    }
    byCollection.set(name, declared);
  }
  return byCollection;
}
