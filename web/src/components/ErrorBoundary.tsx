import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../i18n/t.ts';

type ErrorBoundaryProps = { children: ReactNode; resetKey?: string };
type ErrorBoundaryState = { error: Error | null; resetKey: string | undefined };

/** A page that throws shows what happened and a way out, never a blank screen. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<ErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('page crashed', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <section className="panel crashed" role="alert" data-testid="page-crashed">
        <h2>{t('app.crashed.title')}</h2>
        <p>{t('app.crashed.body')}</p>
        <pre className="crash-detail">{this.state.error.message}</pre>
        <button type="button" onClick={() => window.location.reload()}>
          {t('app.crashed.reload')}
        </button>
      </section>
    );
  }
}
