import type { Clock } from "../../clock";
import type { Mailer } from "../../mail/mailer";
import type { ModuleBase, ModuleParts } from "../module";
import type { OnboardingFacts } from "../onboarding/onboarding-facts";
import type { PersonalData } from "../privacy/personal-data";
import type { UserRepository } from "../users/user.repository";
import { createInterviewModels } from "./interview.model";
import { InterviewRepository } from "./interview.repository";
import { InterviewNotices } from "./interview-notices";
import { InterviewService } from "./interview.service";
import type { OnlineInterview } from "./interview.type";
import { interviewerMigrations } from "./interviewer.migration";
import { InterviewerRepository } from "./interviewer.repository";
import { InterviewerService } from "./interviewer.service";
import { interviewReport } from "./interview-report";
import type { InterviewerDetails } from "./interviewer.type";

/** The module's part of a subject-access export. */
export interface InterviewsExport {
  /** The account's bookings as a member, with the interviewers' notes. */
  bookings: OnlineInterview[];
  /** Interviewer records that are the person's (linked to the account or with its address). */
  interviewers: InterviewerDetails[];
}

export interface InterviewsModuleDeps {
  /** The accounts of members and interviewers (users module). */
  users: Pick<UserRepository, "identitiesOf">;
  /** The member's current record (onboarding module). */
  onboarding: OnboardingFacts;
}

export interface InterviewsModuleOptions extends ModuleBase {
  mailer: Pick<Mailer, "send" | "deliver">;
  /** The time the reminder sweep sees. */
  clock: Clock;
  /** Asked on use: the onboarding module is built after this one. */
  deps: () => InterviewsModuleDeps;
}

const REMINDER_AHEAD_MS = 24 * 60 * 60 * 1000;

/** `Name <address>` → the organizer of the invitations. */
function senderOf(mailFrom: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  return match
    ? { name: match[1] || match[2], email: match[2] }
    : { name: mailFrom, email: mailFrom };
}

/** Interviewers, members' interview bookings, their meetings and outcomes. */
export function createInterviewsModule({
  connection,
  config,
  mailer,
  scheduler,
  clock,
  deps,
}: InterviewsModuleOptions) {
  const users = { identitiesOf: (ids: readonly string[]) => deps().users.identitiesOf(ids) };
  const models = createInterviewModels(connection);
  const repository = new InterviewRepository(models.interviews);
  const interviewerRepository = new InterviewerRepository(models.interviewers, models.markers);
  const interviewers = new InterviewerService(interviewerRepository, repository, { users });
  const notices = new InterviewNotices({ users, mailer, organizer: senderOf(config.mailFrom) });
  const interviews = new InterviewService(
    repository,
    interviewers,
    notices,
    () => deps().onboarding,
  );
  // Reminders 24 hours before: each claimed by one replica before it is mailed, and given back
  // when the member's mail did not go (the mail server is down for the rest too: stop there).
  scheduler.every({
    name: "interviews.reminders",
    run: async () => {
      const now = clock.now();
      const soon = await repository.startingBetween(
        now,
        new Date(now.getTime() + REMINDER_AHEAD_MS),
      );
      for (const booking of soon) {
        if (booking.remindedFor?.getTime() === booking.scheduledAt.getTime()) continue;
        if (!(await repository.claimReminder(booking))) continue;
        const interviewer = await interviewerRepository.findById(booking.interviewerId);
        if (await notices.reminder(booking, interviewer)) continue;
        await repository.releaseReminder(booking);
        return;
      }
    },
  });
  const personalData: PersonalData<InterviewsExport> = {
    exportOf: async (userId) => ({
      bookings: await interviews.exportOf(userId),
      interviewers: await interviewers.exportOf(userId),
    }),
    erase: async (account) => {
      await interviews.eraseOf(account.id);
      await interviewers.eraseOf(account);
    },
  };
  return {
    services: { interviews, interviewers },
    /** InterviewFacts for the onboarding steps. */
    facts: interviews,
    /** For the reports module: interviews by interviewer and outcome. */
    reports: interviewReport(models.interviews, interviewerRepository),
    personalData,
    models: [models.interviewers, models.interviews, models.markers],
    migrations: interviewerMigrations(interviewerRepository, users),
  } satisfies ModuleParts & Record<string, unknown>;
}
