import '@blueprintjs/core/lib/css/blueprint.css';
// The SDK's DataGrid and any plugin grid: 27 KB (about 4 KB gzipped), too small to load apart.
import '@blueprintjs/table/lib/css/table.css';
import './styles.css';
import { bootstrap } from './bootstrap.js';

const element = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
bootstrap(element).catch((error: unknown) => {
  console.error('[console] start failed', error);
  element.textContent = 'The console could not start / 控制台无法启动';
});
