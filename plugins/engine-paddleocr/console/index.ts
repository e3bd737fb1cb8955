import { definePlugin } from '@linguaport/sdk/console';

// An OCR adapter has no screen of its own: its nodes are edited on the engines screen (/service),
// whose form reads the adapter's fields from the server. The build still wants a console module.
export default definePlugin({ id: 'engine-paddleocr', views: {} });
