const Sequencer = require("@jest/test-sequencer").default;

/** The log scan goes last, so it sees the logs of every other file it can. */
class LogScanLast extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const isScan = (test) => test.path.includes(`${require("path").sep}logs${require("path").sep}`);
    return [...sorted.filter((test) => !isScan(test)), ...sorted.filter(isScan)];
  }
}

module.exports = LogScanLast;
