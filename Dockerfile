# syntax=docker/dockerfile:1
# The gateway in a container: three stages. `deps` installs the production packages (only the
# native ones: better-sqlite3 and sharp, with their prebuilt binaries), `build` installs
# everything and makes the production build (a self-contained dist/: the server and the CLI
# with every other package inside, the migrations, the dashboard), `runtime` takes both
# without compilers or development packages. No container engine runs on the project's
# machines: CI runs these stages' `npm` commands, read from this file, in clean folders instead
# (scripts/dockerfile-dry-run.sh; keep its copies in step with the COPY lines here).
#
#   docker build -t gateway .
#   docker run -p 8000:8000 -v gateway-data:/data gateway
#   docker run --rm -v gateway-data:/data gateway node bin/gateway.mjs project list
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# The postinstall script skips `prisma generate` where the Prisma CLI is absent (here).
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs ./scripts/prisma-generate.mjs
RUN npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8000 \
    HOST=0.0.0.0 \
    DATABASE_URL=file:/data/gateway.db \
    MEDIA_DIR=/data/media
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json for `npm start`; bin/ for the operator CLI (`node bin/gateway.mjs`, which runs
# dist/cli.mjs here). Everything in /app belongs to root: the server writes only /data.
COPY package.json package-lock.json ./
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
# /readyz: the database answers, migrations are applied, and (with REDIS_URL) the fan-out is up.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server.mjs"]
