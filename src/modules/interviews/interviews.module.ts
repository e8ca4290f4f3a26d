import type { Mailer } from "../../mail/mailer";
import type { ModuleBase, ModuleParts } from "../module";
import type { OnboardingFacts } from "../onboarding/onboarding-facts";
import type { PersonalData } from "../privacy/personal-data";
import type { UserRepository } from "../users/user.repository";
import { createInterviewModels } from "./interview.model";
import { InterviewRepository } from "./interview.repository";
import { InterviewService } from "./interview.service";
import type { OnlineInterview } from "./interview.type";

export interface InterviewsModuleOptions extends ModuleBase {
  mailer: Pick<Mailer, "send">;
  users: Pick<UserRepository, "identitiesOf">;
  /** Asked on first use: the onboarding module is built after this one. */
  onboarding: () => OnboardingFacts;
}

/** `Name <address>` → the organizer of the invitations. */
function senderOf(mailFrom: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  return match
    ? { name: match[1] || match[2], email: match[2] }
    : { name: mailFrom, email: mailFrom };
}

/** Interviewers, members' interview bookings and their outcomes. */
export function createInterviewsModule({
  connection,
  config,
  mailer,
  users,
  onboarding,
}: InterviewsModuleOptions) {
  const models = createInterviewModels(connection);
  const repository = new InterviewRepository(models.interviewers, models.interviews);
  const interviews = new InterviewService(repository, {
    users,
    onboarding,
    mailer,
    organizer: senderOf(config.mailFrom),
  });
  const personalData: PersonalData<OnlineInterview[]> = {
    exportOf: (userId) => interviews.exportOf(userId),
    erase: ({ id }) => interviews.eraseOf(id),
  };
  return {
    services: { interviews },
    /** InterviewFacts for the onboarding steps. */
    facts: interviews,
    personalData,
    models: [models.interviewers, models.interviews],
  } satisfies ModuleParts & Record<string, unknown>;
}
