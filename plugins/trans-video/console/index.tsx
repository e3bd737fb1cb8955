import { definePlugin } from '@linguaport/sdk/console';
import { TransVideo } from './TransVideo.js';
import { TransVideoView } from './TransVideoView.js';

export default definePlugin({ id: 'trans-video', views: { TransVideo, TransVideoView } });
