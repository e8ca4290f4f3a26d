# Build stage: compile TypeScript with the dev toolchain. Node 22 is the LTS line; the code
# also runs on Node >= 20.19 (package.json engines).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
# The scripts (the demo seed, the data-key rotation) reach the configured database through it.
COPY tools/dev-db ./tools/dev-db
RUN npm run build && npm prune --omit=dev

# Runtime stage: production dependencies and compiled code only, as an unprivileged user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=4000 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# What the service writes (mail in DATA_DIR/outbox when SMTP_URL is unset) goes to a folder
# the unprivileged user owns; docker-compose.yml mounts a volume there.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 4000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
