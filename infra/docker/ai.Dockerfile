# The ai service. Built from the repository root: docker build -f infra/docker/ai.Dockerfile .
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
COPY services ./services
COPY web/package.json ./web/package.json
COPY tests/package.json ./tests/package.json
RUN npm ci --no-audit --no-fund && npx tsc -b services/ai && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "services/ai/dist/server.js"]
