import { ErrorBlock, Skeleton } from 'antd-mobile';
import { StarOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { useIeoApplications } from './api/get-applications.ts';
import { ApplicationSummary, StatusTag } from './ieo-page.tsx';

/** /IEOHis: the user's applications with what was allocated, paid and refunded. */
export function IeoHistoryPage() {
  const { t } = useTranslation();
  const applications = useIeoApplications();
  const items = applications.data?.items ?? [];
  return (
    <Page title={t('routes.IEOHis')} backTo="/IEO">
      {applications.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : applications.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={applications.error}
            onRetry={() => void applications.refetch()}
            retrying={applications.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            image={<StarOutline fontSize={64} color="var(--tw-muted)" />}
            title={t('ieo.history_empty')}
            description={<Link to="/IEO">{t('ieo.history_empty_link')}</Link>}
          />
        </div>
      ) : (
        items.map((application) => (
          <section key={application.id} className="tw-card" data-application-id={application.id}>
            <div
              style={{
                display: 'flex',
                alignItems: 'flex-start',
                justifyContent: 'space-between',
                gap: 8,
              }}
            >
              <Link
                to={`/IEO?id=${application.projectId}`}
                style={{ color: 'inherit', textDecoration: 'none', minWidth: 0 }}
              >
                <h2 style={{ fontSize: 16, margin: 0, overflowWrap: 'anywhere' }}>
                  {application.projectName}
                </h2>
                <div className="tw-muted" style={{ fontSize: 13 }}>
                  {application.token}
                </div>
              </Link>
              <StatusTag status={application.status} />
            </div>
            <ApplicationSummary application={application} />
          </section>
        ))
      )}
    </Page>
  );
}
