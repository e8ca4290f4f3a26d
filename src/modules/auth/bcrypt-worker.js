"use strict";
// Plain JavaScript: worker threads load it as it is, under ts-node and jest as from dist.
const bcrypt = require("bcryptjs");

/** One hashing task, run by piscina in a worker thread. */
module.exports = function bcryptTask(task) {
  return task.op === "hash"
    ? bcrypt.hash(task.password, task.cost)
    : bcrypt.compare(task.password, task.hash);
};
