# Every Node service from one file, built from the repository root with the service's folder name:
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=users .
# SERVICE is one of users, spreadsheet, files, ai, vectordb, gateway. The image holds the shared
# packages and that one service: the gateway's image carries no other service's code.
ARG NODE_IMAGE=node:20.19.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG SERVICE
RUN test -n "${SERVICE}" || { echo "Set --build-arg SERVICE=<users|spreadsheet|files|ai|vectordb|gateway>" >&2; exit 1; }
# better-sqlite3 builds its native module when no prebuilt one fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
COPY services ./services
COPY web/package.json ./web/package.json
COPY tests/package.json ./tests/package.json
RUN npm ci --no-audit --no-fund && npx tsc -b "services/${SERVICE}" && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ARG SERVICE
ENV NODE_ENV=production DATA_DIR=/data SERVICE=${SERVICE}
# The spreadsheet service draws charts into xlsx exports (resvg), whose text needs a font.
RUN if [ "${SERVICE}" = spreadsheet ]; then apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*; fi
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/services/${SERVICE} ./services/${SERVICE}
# The data folder belongs to the user the service runs as; a named volume first mounted here takes
# this owner, so the users service can write its signing key into it.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# exec: node itself receives SIGTERM and closes gracefully.
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/server.js"]
