# The web app: built with Vite, served by nginx, which forwards /api and /health to the gateway.
ARG NODE_IMAGE=node:20.19.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
COPY services ./services
COPY web ./web
COPY tests/package.json ./tests/package.json
RUN npm ci --no-audit --no-fund --ignore-scripts && npm run build -w @finsheet/web

FROM nginx:1.27.3-alpine
COPY infra/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/web/dist /usr/share/nginx/html
EXPOSE 80
