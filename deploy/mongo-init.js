/* global db */ // mongosh runs this file with `db` bound to the database it starts in.
// Runs once, when the mongo volume is empty (docker-entrypoint-initdb.d), as the root user:
// the API gets an account of its own that reaches only its database.
const dbName = process.env.DB_NAME || "chaplaincy";
db.getSiblingDB(dbName).createUser({
  user: process.env.MONGO_APP_USER,
  pwd: process.env.MONGO_APP_PASSWORD,
  roles: [
    { role: "readWrite", db: dbName },
    // Index upkeep and start-up migrations (create and drop indexes and collections).
    { role: "dbAdmin", db: dbName },
  ],
});
