import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n/i18n';
import { App } from './App';
import { warmLocaleData } from './shared/warm-locale-data';
import './styles/base.css';
import './styles/layout.css';
import './styles/sign-in.css';
import './styles/mail.css';
import './styles/toolbar.css';
import './styles/sender-check.css';
import './styles/compose.css';
import './styles/account.css';
import './styles/print.css';
import './styles/phone.css';

warmLocaleData();
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
