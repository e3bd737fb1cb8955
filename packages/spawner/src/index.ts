// Command-line tools run within a deadline and an abort signal, in scratch folders, started by one
// helper process per server (spawner.ts); ffmpeg and ffprobe only with their inputs named (media-inputs.ts).
export { runTool, startWarmTool, inScratch, mapLimited, ToolError, type RunOptions, type WarmTool } from './tools.js';
export { spawnTool, spawnDirect, killGroup, type SpawnRequest, type SpawnResult, type SpawnedTool } from './spawner.js';
export { MEDIA_DEMUXERS, PICTURE_DEMUXERS, mediaInputArgs, pictureInputArgs, mediaDemuxerOf, unnamedMediaInput, type PictureKind } from './media-inputs.js';
