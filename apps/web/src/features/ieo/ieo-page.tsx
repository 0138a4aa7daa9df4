import { ERROR_CODES } from '@tradewind/contract/errors';
import {
  IEO_STATUS_NAMES,
  type IeoApplication,
  type IeoProject,
  IeoStatus,
  ieoSubscribeRequestSchema,
} from '@tradewind/contract/ieo';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, Form, Input, ProgressBar, Skeleton, Tag } from 'antd-mobile';
import { StarOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { isNotFound } from '@tradewind/http-client/api-error';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate, useSearchParams } from '@/lib/router.tsx';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { useProductSwitches } from '@/api/product-switches.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { ProductOff } from '@/ui/product-off.tsx';
import { showToast } from '@/ui/toast.ts';
import { ieoApplicationsQueryKey } from './api/get-applications.ts';
import {
  ieoDetailQueryKey,
  ieoProjectsQueryKey,
  useIeoDetail,
  useIeoProjects,
} from './api/get-projects.ts';
import { subscribeIeo } from './api/subscribe.ts';

type TagColor = 'success' | 'warning' | 'primary' | 'default' | 'danger';

export const STATUS_COLOR: Record<IeoStatus, TagColor> = {
  [IeoStatus.APPLYING]: 'primary',
  [IeoStatus.NOT_STARTED]: 'warning',
  [IeoStatus.SUBSCRIBING]: 'success',
  [IeoStatus.DRAWING]: 'primary',
  [IeoStatus.IN_PROGRESS]: 'primary',
  [IeoStatus.ENDED]: 'default',
  [IeoStatus.APPLIED]: 'success',
  [IeoStatus.COMPLETED]: 'default',
  [IeoStatus.CANCELLED]: 'danger',
};

export function StatusTag({ status }: { status: IeoStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} fill="outline" style={{ flexShrink: 0 }} data-status={status}>
      {t(`ieo.status.${IEO_STATUS_NAMES[status]}`)}
    </Tag>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        gap: 12,
        padding: '6px 0',
        fontSize: 14,
      }}
    >
      <span className="tw-muted" style={{ flexShrink: 0 }}>
        {label}
      </span>
      <span
        style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}
      >
        {children}
      </span>
    </div>
  );
}

function ProjectProgress({ project }: { project: IeoProject }) {
  const { t, i18n } = useTranslation();
  return (
    <div style={{ marginTop: 10 }}>
      <ProgressBar
        percent={project.progress}
        style={{ '--fill-color': 'var(--tw-primary)' } as React.CSSProperties}
      />
      <div
        className="tw-muted"
        style={{ display: 'flex', justifyContent: 'space-between', marginTop: 4, fontSize: 12 }}
      >
        <span>
          {t('ieo.progress', { percent: formatDecimal(String(project.progress), i18n.language) })}
        </span>
        <span>
          {formatDecimal(project.subscribed, i18n.language)} /{' '}
          {formatDecimal(project.supply, i18n.language)} {project.token}
        </span>
      </div>
    </div>
  );
}

function ProjectCard({ project }: { project: IeoProject }) {
  const { t, i18n } = useTranslation();
  return (
    <Link
      to={`/IEO?id=${project.id}`}
      className="tw-card"
      data-project-id={project.id}
      style={{ display: 'block', color: 'inherit', textDecoration: 'none' }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 8,
        }}
      >
        <div style={{ minWidth: 0 }}>
          <h2 style={{ fontSize: 16, margin: 0, overflowWrap: 'anywhere' }}>{project.name}</h2>
          <div className="tw-muted" style={{ fontSize: 13, marginTop: 2 }}>
            {project.token} ·{' '}
            {t('ieo.unit_price_value', { price: formatDecimal(project.unitPrice, i18n.language) })}
          </div>
        </div>
        <StatusTag status={project.status} />
      </div>
      <ProjectProgress project={project} />
      <div className="tw-muted" style={{ marginTop: 6, fontSize: 12 }}>
        {project.status === IeoStatus.NOT_STARTED
          ? t('ieo.starts', { date: formatDateTime(project.startsAt, i18n.language) })
          : t('ieo.ends', { date: formatDateTime(project.endsAt, i18n.language) })}
      </div>
    </Link>
  );
}

/** The user's own application to a project, as /IEOHis shows it. */
export function ApplicationSummary({ application }: { application: IeoApplication }) {
  const { t, i18n } = useTranslation();
  const usdt = (value: string) => `${formatDecimal(value, i18n.language)} USDT`;
  return (
    <>
      <Row label={t('ieo.offer_price')}>{usdt(application.price)}</Row>
      <Row label={t('ieo.quantity')}>
        {formatDecimal(application.quantity, i18n.language)} {application.token}
      </Row>
      <Row label={t('ieo.amount')}>{usdt(application.amount)}</Row>
      {application.allocatedQuantity !== null && (
        <>
          <Row label={t('ieo.allocated_quantity')}>
            {formatDecimal(application.allocatedQuantity, i18n.language)} {application.token}
          </Row>
          <Row label={t('ieo.allocated_price')}>{usdt(application.allocatedPrice ?? '0')}</Row>
          <Row label={t('ieo.allocated_at')}>
            {application.allocatedAt ? formatDateTime(application.allocatedAt, i18n.language) : '–'}
          </Row>
          <Row label={t('ieo.paid_amount')}>{usdt(application.paidAmount ?? '0')}</Row>
          <Row label={t('ieo.remaining_amount')}>{usdt(application.remainingAmount ?? '0')}</Row>
        </>
      )}
      <Row label={t('ieo.applied_at')}>{formatDateTime(application.createdAt, i18n.language)}</Row>
      {application.cancelReason && <CancelNote reason={application.cancelReason} />}
    </>
  );
}

/**
 * Why a project was cancelled, in plain words: the operator's reason on a line of its own, so
 * a reason that ends with a full stop never runs into the sentence after it.
 */
function CancelNote({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="note"
      data-testid="ieo-cancel-note"
      style={{ margin: '10px 0 0', fontSize: 14, color: 'var(--tw-down)' }}
    >
      <p style={{ margin: 0 }}>{t('ieo.cancelled_note')}</p>
      <p style={{ margin: '2px 0 0', overflowWrap: 'anywhere' }}>
        {t('ieo.cancel_reason', { reason })}
      </p>
    </div>
  );
}

interface FormValues {
  price?: string;
  quantity?: string;
}

function amountPreview(price: string | undefined, quantity: string | undefined): string | null {
  const priceMinor = parseAmount(price?.trim() ?? '', 6);
  if (priceMinor === undefined || !/^[1-9]\d{0,14}$/.test(quantity?.trim() ?? '')) return null;
  return formatAmount(priceMinor * BigInt(quantity?.trim() ?? '0'), 6);
}

function SubscribeForm({ project }: { project: IeoProject }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const idempotency = useIdempotencyKey();
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    ieoSubscribeRequestSchema,
    (request) => subscribeIeo(request, idempotency.keyFor(request)),
    async () => {
      idempotency.done();
      showToast({ content: t('ieo.subscribed'), duration: 2000 });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ieoDetailQueryKey(project.id) }),
        queryClient.invalidateQueries({ queryKey: ieoProjectsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ieoApplicationsQueryKey }),
      ]);
      void navigate('/IEOHis');
    },
  );
  const price = Form.useWatch('price', form) as string | undefined;
  const quantity = Form.useWatch('quantity', form) as string | undefined;
  const amount = amountPreview(price, quantity);
  const onFinish = (values: FormValues) =>
    submit({
      projectId: project.id,
      price: values.price?.trim() ?? '',
      quantity: values.quantity?.trim() ?? '',
    });
  return (
    <Form
      form={form}
      layout="vertical"
      mode="card"
      initialValues={{ price: project.unitPrice, quantity: '' }}
      onFinish={onFinish}
      onValuesChange={clearEdited}
      footer={
        <Button block type="submit" color="primary" size="large" loading={submitting}>
          {t('ieo.subscribe')}
        </Button>
      }
    >
      <Form.Header>{t('ieo.subscribe_title')}</Form.Header>
      <Form.Item
        name="price"
        label={t('ieo.offer_price')}
        description={t('ieo.price_range_help', {
          min: formatDecimal(project.priceMin, i18n.language),
          max: formatDecimal(project.priceMax, i18n.language),
        })}
      >
        <Input inputMode="decimal" aria-label={t('ieo.offer_price')} clearable />
      </Form.Item>
      <Form.Item
        name="quantity"
        label={t('ieo.quantity')}
        description={t('ieo.cap_help', {
          cap: formatDecimal(project.perUserCap, i18n.language),
          token: project.token,
        })}
      >
        <Input
          inputMode="numeric"
          aria-label={t('ieo.quantity')}
          placeholder={t('ieo.quantity_placeholder')}
          clearable
        />
      </Form.Item>
      <Form.Item label={t('ieo.amount_to_lock')}>
        <span data-testid="ieo-amount">
          {amount ? `${formatDecimal(amount, i18n.language)} USDT` : '–'}
        </span>
      </Form.Item>
    </Form>
  );
}

function ProjectDetail({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const detail = useIeoDetail(id);
  if (detail.isPending) {
    return (
      <div className="tw-card">
        <Skeleton.Paragraph lineCount={6} animated />
      </div>
    );
  }
  if (!detail.data) {
    return (
      <div className="tw-card">
        {isNotFound(detail.error, ERROR_CODES.IEO_NOT_FOUND) ? (
          <ErrorBlock status="empty" title={t('errors.IEO_NOT_FOUND')} description="" />
        ) : (
          <LoadFailed
            error={detail.error}
            onRetry={() => void detail.refetch()}
            retrying={detail.isFetching}
          />
        )}
      </div>
    );
  }
  const { project, application } = detail.data;
  const usdt = (value: string) => `${formatDecimal(value, i18n.language)} USDT`;
  const date = (iso: string) => formatDateTime(iso, i18n.language);
  return (
    <>
      <section className="tw-card" aria-labelledby="ieo-name">
        <div
          style={{
            display: 'flex',
            alignItems: 'flex-start',
            justifyContent: 'space-between',
            gap: 8,
          }}
        >
          <div style={{ minWidth: 0 }}>
            <h2 id="ieo-name" style={{ fontSize: 18, margin: 0, overflowWrap: 'anywhere' }}>
              {project.name}
            </h2>
            <div className="tw-muted" style={{ fontSize: 13, marginTop: 2 }}>
              {project.token}
            </div>
          </div>
          <StatusTag status={project.status} />
        </div>
        <ProjectProgress project={project} />
        <p style={{ margin: '10px 0 0', fontSize: 14, color: 'var(--tw-muted)' }}>
          {project.description}
        </p>
        {project.cancelReason && <CancelNote reason={project.cancelReason} />}
      </section>
      <section className="tw-card">
        <Row label={t('ieo.issue_amount')}>
          {formatDecimal(project.supply, i18n.language)} {project.token}
        </Row>
        <Row label={t('ieo.unit_price')}>{usdt(project.unitPrice)}</Row>
        <Row label={t('ieo.price_range')}>
          {formatDecimal(project.priceMin, i18n.language)} – {usdt(project.priceMax)}
        </Row>
        <Row label={t('ieo.per_user_cap')}>
          {formatDecimal(project.perUserCap, i18n.language)} {project.token}
        </Row>
        <Row label={t('ieo.announced_at')}>{date(project.announcedAt)}</Row>
        <Row label={t('ieo.starts_at')}>{date(project.startsAt)}</Row>
        <Row label={t('ieo.ends_at')}>{date(project.endsAt)}</Row>
        <Row label={t('ieo.lists_at')}>{date(project.listsAt)}</Row>
      </section>
      <section className="tw-card" aria-labelledby="ieo-rule">
        <h3 id="ieo-rule" style={{ fontSize: 15, margin: 0 }}>
          {t('ieo.rule_title')}
        </h3>
        {t('ieo.rule', {
          cap: formatDecimal(project.perUserCap, i18n.language),
          token: project.token,
        })
          .split('\n')
          .map((paragraph) => (
            <p
              key={paragraph}
              style={{ margin: '6px 0 0', fontSize: 13, lineHeight: 1.5, color: 'var(--tw-muted)' }}
            >
              {paragraph}
            </p>
          ))}
      </section>
      {application ? (
        <section
          className="tw-card"
          aria-labelledby="ieo-mine"
          data-application-id={application.id}
        >
          <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
            <h3 id="ieo-mine" style={{ fontSize: 15, margin: 0 }}>
              {t('ieo.my_application')}
            </h3>
            <StatusTag status={application.status} />
          </div>
          <ApplicationSummary application={application} />
        </section>
      ) : project.status === IeoStatus.SUBSCRIBING ? (
        <SubscribeForm project={project} />
      ) : null}
    </>
  );
}

/** /IEO: launchpad projects; `?id=` opens one project with its terms, rule and the subscription form. */
export function IeoPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  const projects = useIeoProjects();
  const ieoOn = useProductSwitches().data?.ieo !== false;
  const items = projects.data?.items ?? [];
  const history = (
    <Link to="/IEOHis" className="tw-link" style={{ fontSize: 14 }}>
      {t('ieo.history_link')}
    </Link>
  );
  if (!ieoOn) {
    return (
      <Page title={t('routes.IEO')} backTo="/" right={history}>
        <ProductOff message={t('ieo.off')} />
      </Page>
    );
  }
  if (id && /^[1-9]\d{0,17}$/.test(id)) {
    return (
      <Page title={t('ieo.detail_title')} backTo="/IEO" right={history}>
        <ProjectDetail id={id} />
      </Page>
    );
  }
  return (
    <Page title={t('routes.IEO')} backTo="/" right={history}>
      {projects.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : projects.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={projects.error}
            onRetry={() => void projects.refetch()}
            retrying={projects.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            image={<StarOutline fontSize={64} color="var(--tw-muted)" />}
            title={t('ieo.empty_title')}
            description={t('ieo.empty_description')}
          />
        </div>
      ) : (
        items.map((project) => <ProjectCard key={project.id} project={project} />)
      )}
    </Page>
  );
}
