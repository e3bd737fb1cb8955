import { I18nextProvider } from 'react-i18next';
import { KernelContext, type Kernel } from './container.js';
import { AppRouter } from './router/AppRouter.js';

export function App({ kernel }: { kernel: Kernel }) {
  return (
    <KernelContext.Provider value={kernel}>
      <I18nextProvider i18n={kernel.i18n} defaultNS="core">
        <AppRouter />
      </I18nextProvider>
    </KernelContext.Provider>
  );
}
