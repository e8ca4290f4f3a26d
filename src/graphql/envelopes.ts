import { Field, Int, ObjectType, type ClassType } from "type-graphql";
import type { PageResult } from "../modules/page-result";

/**
 * The REST envelopes of the contract are GraphQL types too: a REST route returns its
 * operation's root field as is, so `{code, message, data}` has to live in the schema.
 */
@ObjectType("Pagination", { simpleResolvers: true })
export class Pagination {
  @Field(() => Int)
  currentPage!: number;

  @Field(() => Int)
  totalPages!: number;

  @Field(() => Int)
  totalCount!: number;

  @Field(() => Int)
  limit!: number;

  @Field()
  hasNextPage!: boolean;

  @Field()
  hasPreviousPage!: boolean;

  static of(page: number, limit: number, totalCount: number): Pagination {
    const totalPages = Math.ceil(totalCount / limit);
    return Object.assign(new Pagination(), {
      currentPage: page,
      totalPages,
      totalCount,
      limit,
      hasNextPage: page < totalPages,
      hasPreviousPage: page > 1 && totalPages > 0,
    });
  }
}

export interface Payload<T> {
  code: string;
  message: string;
  data: T;
}

export interface Page<T> {
  code: string;
  message: string;
  data: T[];
  pagination: Pagination;
}

export function PayloadType<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name, { simpleResolvers: true })
  class PayloadClass implements Payload<T> {
    @Field()
    code!: string;

    @Field()
    message!: string;

    @Field(() => item)
    data!: T;
  }
  return PayloadClass;
}

export function PageType<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name, { simpleResolvers: true })
  class PageClass implements Page<T> {
    @Field()
    code!: string;

    @Field()
    message!: string;

    @Field(() => [item])
    data!: T[];

    @Field(() => Pagination)
    pagination!: Pagination;
  }
  return PageClass;
}

@ObjectType("Acknowledgement", {
  simpleResolvers: true,
  description: "A success without a record: code and message",
})
export class Acknowledgement {
  @Field()
  code!: string;

  @Field()
  message!: string;
}

export const ok = <T>(data: T, message: string): Payload<T> => ({ code: "OK", message, data });
export const created = <T>(data: T, message: string): Payload<T> => ({
  code: "CREATED",
  message,
  data,
});
export const acknowledged = (message: string): Acknowledgement => ({ code: "OK", message });
/** A service's page in the list envelope: its items as `data`, and the pagination they make. */
export const paged = <T>(result: PageResult<T>, message: string): Page<T> => ({
  code: "OK",
  message,
  data: result.items,
  pagination: Pagination.of(result.page, result.limit, result.total),
});
