import '@blueprintjs/core/lib/css/blueprint.css';
import './styles.css';
import { bootstrap } from './bootstrap.js';

const element = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
bootstrap(element).catch((error: unknown) => {
  console.error('[console] start failed', error);
  element.textContent = 'The console could not start / 控制台无法启动';
});
