# syntax=docker/dockerfile:1
# The gateway in a container: three stages. `deps` installs the production packages (native
# better-sqlite3 needs a compiler when no prebuilt binary fits), `build` installs everything and
# bundles the server and the dashboard (dist/), `runtime` takes both without compilers or dev
# packages. No container engine runs on the project's machines: CI runs these stages' `npm`
# commands, read from this file, in clean folders instead (scripts/dockerfile-dry-run.sh; keep
# its copies in step with the COPY lines here).
#
#   docker build -t gateway .
#   docker run -p 8000:8000 -v gateway-data:/data gateway
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
# The postinstall script generates the Prisma clients (src/generated/) from prisma/.
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY scripts/prisma-generate.mjs ./scripts/prisma-generate.mjs
RUN npm ci --omit=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8000 \
    HOST=0.0.0.0 \
    DATABASE_URL=file:/data/gateway.db
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/src/generated ./src/generated
COPY --from=build /app/dist ./dist
# The server reads prisma/ (migrations, applied at start) and package.json (the project root);
# src/, rest-compat/ and bin/ are for the operator CLI (`npx gateway ...`, run by tsx).
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY src ./src
COPY rest-compat ./rest-compat
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
# /readyz: the database answers, migrations are applied, and (with REDIS_URL) the fan-out is up.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The bundle itself, not `npm start`: that one rebuilds when sources look newer than dist/,
# which an image must never do at start.
CMD ["node", "dist/server.mjs"]
