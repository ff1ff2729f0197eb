# Untested: no Docker engine runs where this project is built (see docs/operations.md).
# Node 24, the major package.json pins (the image brings its own node; npm ci in the build stage
# also installs the pinned `node` devDependency, which npm prune removes again).
# One image for the API (default command), the worker (node dist/src/worker.js) and the screen host.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/client/package.json packages/client/
COPY screen-host/package.json screen-host/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev && mkdir -p screen-host/node_modules

FROM node:24-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/config ./config
# node_modules/@warden/protocol is a link to packages/protocol: its package.json and compiled dist/.
COPY --from=build /app/packages/protocol/package.json ./packages/protocol/
COPY --from=build /app/packages/protocol/dist ./packages/protocol/dist
COPY --from=build /app/screen-host/package.json ./screen-host/
COPY --from=build /app/screen-host/dist ./screen-host/dist
COPY --from=build /app/screen-host/node_modules ./screen-host/node_modules
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["sh", "-c", "node dist/src/cli.js migrate && exec node dist/src/main.js"]
