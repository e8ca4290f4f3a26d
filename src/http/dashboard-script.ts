/**
 * The dashboard page's own script, served as a file of this service (/admin/assets/dashboard.js)
 * so the page needs no inline script. Plain ES5 in the browser: Chart.js is loaded before it.
 */
export const DASHBOARD_SCRIPT = String.raw`/* The administrators' dashboard (GET /admin/dashboard): signs in through POST /api/v1/auth/login,
 * reads GET /api/v1/reports with the access token (kept in memory only) and draws each report
 * with Chart.js, loaded from this service before this file. No inline script: the CSP holds. */
(function () {
  "use strict";
  var API = "/api/v1";
  var form = document.getElementById("sign-in");
  var status = document.getElementById("status");
  var charts = document.getElementById("charts");

  function say(text) {
    status.textContent = text;
  }

  function chart(id, type, labels, datasets, stacked) {
    var canvas = document.getElementById(id);
    return new Chart(canvas, {
      type: type,
      data: { labels: labels, datasets: datasets },
      options: {
        animation: false,
        responsive: false,
        plugins: { legend: { display: datasets.length > 1 } },
        scales: { x: { stacked: !!stacked }, y: { stacked: !!stacked, beginAtZero: true } },
      },
    });
  }

  function counts(rows, label) {
    return {
      labels: rows.map(function (row) {
        return row.key === null ? "(none)" : row.key;
      }),
      datasets: [
        {
          label: label,
          data: rows.map(function (row) {
            return row.count;
          }),
        },
      ],
    };
  }

  /* Members at each step now as bars, the median days each step took as a line on its own axis. */
  function funnel(rows) {
    new Chart(document.getElementById("onboarding-funnel"), {
      type: "bar",
      data: {
        labels: rows.map(function (row) {
          return row.step;
        }),
        datasets: [
          {
            label: "Members at the step now",
            yAxisID: "y",
            data: rows.map(function (row) {
              return row.members;
            }),
          },
          {
            type: "line",
            label: "Median days the step took",
            yAxisID: "days",
            data: rows.map(function (row) {
              return row.medianDays;
            }),
          },
        ],
      },
      options: {
        animation: false,
        responsive: false,
        scales: {
          y: { beginAtZero: true, position: "left" },
          days: { beginAtZero: true, position: "right", grid: { drawOnChartArea: false } },
        },
      },
    });
  }

  function draw(reports) {
    var parts = [
      ["members-by-status", "bar", counts(reports.membersByStatus, "Members")],
      ["members-by-region", "bar", counts(reports.membersByRegion, "Members")],
      ["members-by-month", "line", counts(reports.membersByApprovalMonth, "Approved")],
    ];
    parts.forEach(function (part) {
      chart(part[0], part[1], part[2].labels, part[2].datasets);
    });
    funnel(reports.onboardingFunnel);
    var months = reports.paymentsByMonth.map(function (row) {
      return row.month;
    });
    chart("payments-by-month", "bar", months, [
      {
        label: "Verified payments (PHP)",
        data: reports.paymentsByMonth.map(function (row) {
          return row.total;
        }),
      },
    ]);
    var interviewers = [];
    var outcomes = [];
    reports.interviewsByInterviewer.forEach(function (row) {
      if (interviewers.indexOf(row.interviewer) < 0) interviewers.push(row.interviewer);
      if (outcomes.indexOf(row.outcome) < 0) outcomes.push(row.outcome);
    });
    chart(
      "interviews",
      "bar",
      interviewers,
      outcomes.map(function (outcome) {
        return {
          label: outcome,
          data: interviewers.map(function (name) {
            var found = reports.interviewsByInterviewer.filter(function (row) {
              return row.interviewer === name && row.outcome === outcome;
            })[0];
            return found ? found.count : 0;
          }),
        };
      }),
      true,
    );
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    say("Signing in…");
    var body = JSON.stringify({
      email: form.elements.email.value,
      password: form.elements.password.value,
    });
    fetch(API + "/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body,
      credentials: "same-origin",
    })
      .then(function (response) {
        return response.json().then(function (answer) {
          if (!response.ok || !answer.accessToken) {
            throw new Error(answer.mfaRequired ? "Sign in with MFA is not offered here" : answer.message);
          }
          return answer.accessToken;
        });
      })
      .then(function (token) {
        return fetch(API + "/reports", { headers: { authorization: "Bearer " + token } });
      })
      .then(function (response) {
        return response.json().then(function (answer) {
          if (!response.ok) throw new Error(answer.message);
          return answer;
        });
      })
      .then(function (reports) {
        form.hidden = true;
        charts.hidden = false;
        draw(reports);
        say("Signed in.");
      })
      .catch(function (error) {
        say(error.message || "Something went wrong");
      });
  });
})();
`;
