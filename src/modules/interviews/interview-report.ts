import { greaterThan } from "../../db/operators";
import type { InterviewReportSource } from "../reports/report-ports";
import type { InterviewModel } from "./interview.model";
import type { InterviewerRepository } from "./interviewer.repository";

/**
 * Interviews by interviewer and outcome: one `$match` on interviewerId (the lead of the
 * bookings' unique index) and one `$group`; the names come from the interviewers' records.
 */
export function interviewReport(
  interviews: InterviewModel,
  interviewers: Pick<InterviewerRepository, "byIds">,
): InterviewReportSource {
  return {
    async byInterviewerAndOutcome() {
      const groups = await interviews
        .aggregate<{ _id: { interviewerId: string; outcome: string }; count: number }>([
          { $match: { interviewerId: greaterThan("") } },
          {
            $group: {
              _id: { interviewerId: "$interviewerId", outcome: "$outcome" },
              count: { $sum: 1 },
            },
          },
        ])
        .exec();
      const ids = groups.map((group) => group._id.interviewerId);
      const names = new Map(
        (ids.length > 0 ? await interviewers.byIds(ids) : []).map((record) => [
          record._id,
          record.name,
        ]),
      );
      return groups
        .map((group) => ({
          interviewerId: group._id.interviewerId,
          // An interviewer deleted since keeps their bookings' id, without a name.
          interviewer: names.get(group._id.interviewerId) ?? "(deleted)",
          outcome: group._id.outcome,
          count: group.count,
        }))
        .sort(
          (a, b) =>
            a.interviewer.localeCompare(b.interviewer) || a.outcome.localeCompare(b.outcome),
        );
    },
  };
}
