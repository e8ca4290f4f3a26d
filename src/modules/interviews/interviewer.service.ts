import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import { normaliseEmail } from "../users/email";
import { Role } from "../users/role";
import type { AccountIdentity } from "../users/user.repository";
import { freeSlots, lookAhead, sortedDays, sortedSlots } from "./interview-calendar";
import type { InterviewerRecord } from "./interview.model";
import type { InterviewRepository } from "./interview.repository";
import { DEFAULT_DAYS, DEFAULT_SLOTS } from "./interviewer-defaults";
import { interviewerRef } from "./interviewer-key";
import type {
  CreateInterviewerArgs,
  InterviewerListArgs,
  UpdateInterviewerArgs,
} from "./interviewer.input";
import type { InterviewerChanges, InterviewerRepository } from "./interviewer.repository";
import { Interviewer, InterviewerDetails } from "./interviewer.type";

/** How many free slots GET /interviewers shows of each interviewer. */
const NEXT_FREE_COUNT = 10;
/** The next bookable date of each weekday lies within this many days. */
const HORIZON_DAYS = 8;
const STAFF: readonly Role[] = [Role.OFFICER, Role.ADMIN];

export interface InterviewerDeps {
  users: { identitiesOf(ids: readonly string[]): Promise<AccountIdentity[]> };
}

/** The interviewers administrators keep for the onboarding's interview, and their free slots. */
export class InterviewerService {
  constructor(
    private readonly interviewers: InterviewerRepository,
    private readonly interviews: InterviewRepository,
    private readonly deps: InterviewerDeps,
  ) {}

  /** GET /interviewers: the active ones with their next free slots. */
  async offers(now = new Date()): Promise<Interviewer[]> {
    const records = await this.interviewers.active();
    const window = lookAhead(now, HORIZON_DAYS);
    const taken = await this.interviews.takenSlots(
      records.map((record) => record._id),
      window.from,
      window.to,
    );
    return records.map((record) =>
      Interviewer.from(
        record,
        freeSlots(record, taken.get(record._id) ?? new Set(), now, NEXT_FREE_COUNT),
      ),
    );
  }

  async list(args: InterviewerListArgs): Promise<PageResult<InterviewerDetails>> {
    const { records, total } = await this.interviewers.page(args);
    return pageOf(
      args,
      records.map((record) => InterviewerDetails.from(record)),
      total,
    );
  }

  async create(args: CreateInterviewerArgs): Promise<InterviewerDetails> {
    const key = args.key.trim().toLowerCase();
    const active = args.active ?? true;
    const days = sortedDays(args.days ?? DEFAULT_DAYS);
    const timeSlots = sortedSlots(args.timeSlots ?? DEFAULT_SLOTS);
    offersSomething(active, days, timeSlots);
    if (args.userId) await this.checkAccount(args.userId);
    const id = uuidv7();
    const record = await this.interviewers.insert({
      _id: id,
      key,
      name: args.name.trim(),
      title: args.title.trim(),
      email: args.email ? normaliseEmail(args.email) : null,
      ...(args.userId ? { userId: args.userId } : {}),
      active,
      days,
      timeSlots,
    });
    if (record === DUPLICATE) throw await this.whyDuplicate(key, id);
    return InterviewerDetails.from(record);
  }

  async update(args: UpdateInterviewerArgs): Promise<InterviewerDetails> {
    const current = await this.find(args.id);
    for (const field of ["key", "name", "title", "active", "days", "timeSlots"] as const) {
      if (args[field] === null) throw ValidationError.field(field, `${field} cannot be cleared`);
    }
    const changes: InterviewerChanges = {
      key: args.key?.trim().toLowerCase(),
      name: args.name?.trim(),
      title: args.title?.trim(),
      email: args.email === undefined ? undefined : args.email && normaliseEmail(args.email),
      userId: args.userId,
      active: args.active ?? undefined,
      days: args.days ? sortedDays(args.days) : undefined,
      timeSlots: args.timeSlots ? sortedSlots(args.timeSlots) : undefined,
    };
    offersSomething(
      changes.active ?? current.active,
      changes.days ?? current.days,
      changes.timeSlots ?? current.timeSlots,
    );
    if (args.userId) await this.checkAccount(args.userId);
    const updated = await this.interviewers.update(current._id, changes);
    if (updated === DUPLICATE)
      throw await this.whyDuplicate(changes.key ?? current.key, current._id);
    if (!updated) throw notFound(args.id);
    return InterviewerDetails.from(updated);
  }

  /** No longer bookable; bookings already made stay. */
  async deactivate(ref: string): Promise<InterviewerDetails> {
    const current = await this.find(ref);
    const updated = await this.interviewers.deactivate(current._id);
    if (!updated) throw notFound(ref);
    return InterviewerDetails.from(updated);
  }

  /**
   * Erases the record (its name and address with it); past bookings keep its id. Refused while
   * an interview with it is still to come, so no member is left booked with nobody.
   */
  async delete(ref: string, now = new Date()): Promise<InterviewerDetails> {
    const current = await this.find(ref);
    if (await this.interviews.hasUpcoming(current._id, now)) {
      throw new ConflictError(
        `${current.name} still has interviews to come: deactivate the interviewer and let those members book another first`,
      );
    }
    if (!(await this.interviewers.delete(current._id))) throw notFound(ref);
    return InterviewerDetails.from(current);
  }

  /** The interviewer an id or key names, or null. */
  async resolve(ref: string): Promise<InterviewerRecord | null> {
    const parsed = interviewerRef(ref);
    if (!parsed) return null;
    return "id" in parsed
      ? this.interviewers.findById(parsed.id)
      : this.interviewers.findByKey(parsed.key);
  }

  /** As resolve, 404 when there is none. */
  async find(ref: string): Promise<InterviewerRecord> {
    const found = await this.resolve(ref);
    if (!found) throw notFound(ref);
    return found;
  }

  /** The record linked to an account (an officer's own interviews), or null. */
  ofAccount(userId: string): Promise<InterviewerRecord | null> {
    return this.interviewers.ofAccount(userId);
  }

  async byIds(ids: readonly string[]): Promise<Map<string, InterviewerRecord>> {
    const records = await this.interviewers.byIds(ids);
    return new Map(records.map((record) => [record._id, record] as const));
  }

  /** Subject access: the records that are this person's (linked account or address). */
  async exportOf(userId: string): Promise<InterviewerDetails[]> {
    const [account] = await this.deps.users.identitiesOf([userId]);
    const records = await this.interviewers.ofPerson(userId, account?.email ?? null);
    return records.map((record) => InterviewerDetails.from(record));
  }

  /** Erasure: the person's records go; bookings made with them keep only the id. */
  eraseOf(account: { id: string; email: string }): Promise<void> {
    return this.interviewers.deleteOfPerson(account.id, normaliseEmail(account.email));
  }

  private async checkAccount(userId: string): Promise<void> {
    const [account] = await this.deps.users.identitiesOf([userId]);
    if (!account) throw ValidationError.field("userId", `No account has id ${userId}`);
    if (!STAFF.includes(account.role)) {
      throw new ConflictError(
        "Only officers and administrators can record interviews; change the role first",
      );
    }
  }

  /** Why a write of record `id` met a unique index: a taken key or an account already linked. */
  private async whyDuplicate(key: string, id: string): Promise<ConflictError> {
    const holder = await this.interviewers.findByKey(key);
    return new ConflictError(
      holder && holder._id !== id
        ? `The key ${key} is taken by another interviewer`
        : "That account is already linked to another interviewer",
    );
  }
}

function offersSomething(active: boolean, days: readonly string[], slots: readonly string[]) {
  if (active && (days.length === 0 || slots.length === 0)) {
    const path = days.length === 0 ? "days" : "timeSlots";
    throw ValidationError.field(path, `An active interviewer offers at least one of ${path}`);
  }
}

function notFound(ref: string): NotFoundError {
  return new NotFoundError(`No interviewer has the id or key ${ref}`);
}
