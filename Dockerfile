# The station app: one image, configured entirely through the environment.
FROM node:20-bookworm-slim

WORKDIR /app
# ffmpeg encodes WAV/FLAC/AIFF episode uploads to MP3 listening copies at -16 LUFS.
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data

COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
COPY prisma prisma
COPY prisma.config.ts ./
# Applied by npm ci's postinstall (patch-package): see patches/README.md.
COPY patches patches
# Dev dependencies are needed to build (Remix compiler, esbuild); NODE_ENV=production would leave them out.
RUN npm ci --include=dev --no-audit --no-fund

COPY . .
# Built once here (remix build + the bundled server), not at every start; the dev tools go
# afterwards. tsx stays (a dependency): the first start seeds in a short-lived TypeScript process.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && mkdir -p /app/data && chown -R node:node /app/data

USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "build/server/index.js"]
