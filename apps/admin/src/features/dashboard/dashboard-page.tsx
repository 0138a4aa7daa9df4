import type { Dashboard as DashboardData } from '@tradewind/contract/dashboard';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  List,
  Row,
  Space,
  Spin,
  Statistic,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { Link } from 'react-router';
import { ApiError } from '@tradewind/http-client/api-error';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { useCheckLedger } from './api/check-ledger.ts';
import { useDashboard } from './api/get-dashboard.ts';
import { DailyBars } from './daily-bars.tsx';

const useT = defineStrings({
  en: {
    generated: 'As of {time} · last 30 days ({from} – {to}, UTC)',
    refresh: 'Refresh',
    loadFailed: 'Could not load the dashboard.',
    queues: 'Waiting for review',
    kyc: 'KYC',
    cardDeposits: 'Card deposits',
    withdrawals: 'Withdrawals',
    rentals: 'Miner rentals',
    loans: 'Loans',
    underReview: 'under review',
    processing: 'processing',
    awaitingDisbursement: 'awaiting disbursement',
    open: 'Open queue',
    ledger: 'Ledger invariants',
    ledgerOk: 'All invariants hold',
    ledgerBroken: '{n} violation(s)',
    ledgerError: 'The check did not finish',
    ledgerNever: 'Not checked yet',
    checkedAt: 'Checked {time} ({ms} ms) by {trigger}',
    schedule: 'the schedule',
    runCheck: 'Run check now',
    checkDone: 'Ledger check finished.',
    flows: 'Deposits and withdrawals by day',
    flowsNote:
      'From the ledger: a deposit counts on the day it was credited, a withdrawal on the day it succeeded. Card deposits are gross (fee included).',
    noFlows: 'No deposits or withdrawals in the last 30 days.',
    chain: 'On-chain deposits',
    card: 'Card deposits',
    out: 'Withdrawals',
    day: 'Day (UTC)',
    house: 'House result from contracts by day',
    houseNote:
      'What the house accounts gained (+) or lost (−) from settled instant contracts, and their fees.',
    settlement: 'Settlement',
    fees: 'Fees',
    net: 'Net',
    noHouse: 'No contract settled in the last 30 days.',
    obligations: 'Open obligations (locked funds)',
    asset: 'Asset',
    usersLocked: "Users' locked balances",
    openOrders: 'Open orders',
    openStakes: 'Open stakes',
    openFees: 'Open fees',
    openMaxPayouts: 'Max payout if all win',
    noObligations: 'Nothing is locked.',
    activeDays: 'Days with activity',
  },
  'zh-CN': {
    generated: '截至 {time} · 最近 30 天（{from} – {to}，UTC）',
    refresh: '刷新',
    loadFailed: '无法加载概览。',
    queues: '待审核',
    kyc: '实名认证',
    cardDeposits: '银行卡充值',
    withdrawals: '提现',
    rentals: '矿机租赁',
    loans: '贷款',
    underReview: '审核中',
    processing: '处理中',
    awaitingDisbursement: '待放款',
    open: '打开队列',
    ledger: '账本不变量',
    ledgerOk: '所有不变量成立',
    ledgerBroken: '{n} 项违规',
    ledgerError: '检查未能完成',
    ledgerNever: '尚未检查',
    checkedAt: '检查于 {time}（{ms} 毫秒），触发者：{trigger}',
    schedule: '定时任务',
    runCheck: '立即检查',
    checkDone: '账本检查已完成。',
    flows: '每日充值与提现',
    flowsNote: '数据来自账本：充值按入账日计，提现按成功日计。银行卡充值为含手续费的总额。',
    noFlows: '最近 30 天没有充值或提现。',
    chain: '链上充值',
    card: '银行卡充值',
    out: '提现',
    day: '日期（UTC）',
    house: '每日合约平台损益',
    houseNote: '平台账户从已结算的秒合约及其手续费中获得（+）或损失（−）的金额。',
    settlement: '结算',
    fees: '手续费',
    net: '净额',
    noHouse: '最近 30 天没有结算的合约。',
    obligations: '未结义务（冻结资金）',
    asset: '币种',
    usersLocked: '用户冻结余额',
    openOrders: '未结订单',
    openStakes: '未结本金',
    openFees: '未结手续费',
    openMaxPayouts: '全部盈利时的最大赔付',
    noObligations: '没有冻结的资金。',
    activeDays: '有交易的日期',
  },
});

type T = ReturnType<typeof useT>;
const num = (text: string) => Number(text);
const signed = (text: string) => (text.startsWith('-') || text === '0' ? text : `+${text}`);

function QueueCard({
  title,
  count,
  to,
  detail,
}: {
  title: string;
  count: number;
  to: string;
  detail?: string;
}) {
  return (
    <Link to={to} data-testid={`queue-${to.split('/').pop() ?? to}`}>
      <Card size="small" hoverable style={{ height: '100%' }}>
        <Statistic
          title={title}
          value={count}
          styles={{ content: { color: count > 0 ? '#d46b08' : undefined } }}
        />
        {detail && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {detail}
          </Typography.Text>
        )}
      </Card>
    </Link>
  );
}

function Queues({ data, t }: { data: DashboardData; t: T }) {
  const q = data.queues;
  const cards = [
    { title: t('kyc'), count: q.kyc, to: '/queues/kyc' },
    { title: t('cardDeposits'), count: q.cardDeposits, to: '/queues/card-deposits' },
    {
      title: t('withdrawals'),
      count: q.withdrawalsUnderReview + q.withdrawalsProcessing,
      to: '/queues/withdrawals',
      detail: `${q.withdrawalsUnderReview} ${t('underReview')} · ${q.withdrawalsProcessing} ${t('processing')}`,
    },
    { title: t('rentals'), count: q.rentals, to: '/queues/mining' },
    {
      title: t('loans'),
      count: q.loansUnderReview + q.loansAwaitingDisbursement,
      to: '/queues/loans',
      detail: `${q.loansUnderReview} ${t('underReview')} · ${q.loansAwaitingDisbursement} ${t('awaitingDisbursement')}`,
    },
  ];
  return (
    <Row gutter={[12, 12]}>
      {cards.map((card) => (
        <Col key={card.to} flex="1 1 0" style={{ minWidth: 160 }}>
          <QueueCard {...card} />
        </Col>
      ))}
    </Row>
  );
}

function LedgerStatus({ data, t }: { data: DashboardData; t: T }) {
  const { message } = App.useApp();
  const run = useCheckLedger();
  const runCheck = () =>
    run.mutate(undefined, {
      onSuccess: () => message.success(t('checkDone')),
      onError: (error) => message.error(error instanceof ApiError ? error.message : String(error)),
    });
  const check = data.ledgerCheck;
  const status = !check ? (
    <Tag>{t('ledgerNever')}</Tag>
  ) : check.status === 'ok' ? (
    <Tag color="success">{t('ledgerOk')}</Tag>
  ) : (
    <Tag color="error">
      {check.status === 'error'
        ? t('ledgerError')
        : t('ledgerBroken', { n: check.violations.length })}
    </Tag>
  );
  return (
    <Card
      size="small"
      title={t('ledger')}
      extra={
        <Button
          size="small"
          loading={run.isPending}
          onClick={runCheck}
          data-testid="ledger-check-run"
        >
          {t('runCheck')}
        </Button>
      }
      style={{
        borderColor: check && check.status !== 'ok' ? '#ff4d4f' : check ? '#52c41a' : undefined,
      }}
      data-testid="ledger-check"
      data-status={check?.status ?? 'never'}
    >
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        {status}
        {check && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('checkedAt', {
              time: formatTime(check.startedAt),
              ms: check.durationMs,
              trigger:
                check.trigger === 'schedule'
                  ? t('schedule')
                  : check.trigger.replace(/^operator:/, ''),
            })}
          </Typography.Text>
        )}
        {check && check.violations.length > 0 && (
          <List
            size="small"
            dataSource={check.violations}
            renderItem={(v) => (
              <List.Item style={{ paddingInline: 0 }}>
                <Typography.Text type="danger" style={{ fontSize: 12 }}>
                  {v.rule}:{' '}
                  <Typography.Text code style={{ fontSize: 11 }}>
                    {v.detail}
                  </Typography.Text>
                </Typography.Text>
              </List.Item>
            )}
          />
        )}
      </Space>
    </Card>
  );
}

function Flows({ data, t }: { data: DashboardData; t: T }) {
  if (data.flows.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noFlows')} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {data.flows.map((flow) => {
        const days = flow.days.map((d) => d.day);
        const active = flow.days
          .filter((d) => d.chainDeposits !== '0' || d.cardDeposits !== '0' || d.withdrawals !== '0')
          .reverse();
        return (
          <div key={flow.asset} data-testid={`flows-${flow.asset}`}>
            <Typography.Text strong>{flow.asset}</Typography.Text>
            <DailyBars
              days={days}
              series={[
                {
                  label: t('chain'),
                  color: '#1f6feb',
                  values: flow.days.map((d) => num(d.chainDeposits)),
                },
                {
                  label: t('card'),
                  color: '#13c2c2',
                  values: flow.days.map((d) => num(d.cardDeposits)),
                },
                {
                  label: t('out'),
                  color: '#fa8c16',
                  values: flow.days.map((d) => -num(d.withdrawals)),
                },
              ]}
            />
            <DayTable
              rows={active}
              dayTitle={t('day')}
              columns={[
                {
                  title: t('chain'),
                  dataIndex: 'chainDeposits',
                  align: 'right',
                  render: (v: string) => <Amount value={v} />,
                },
                {
                  title: t('card'),
                  dataIndex: 'cardDeposits',
                  align: 'right',
                  render: (v: string) => <Amount value={v} />,
                },
                {
                  title: t('out'),
                  dataIndex: 'withdrawals',
                  align: 'right',
                  render: (v: string) => <Amount value={v} />,
                },
              ]}
            />
          </div>
        );
      })}
    </Space>
  );
}

function House({ data, t }: { data: DashboardData; t: T }) {
  const { house } = data;
  const active = house.days.filter((d) => d.settlement !== '0' || d.fees !== '0').reverse();
  if (active.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noHouse')} />;
  return (
    <div data-testid="house">
      <DailyBars
        days={house.days.map((d) => d.day)}
        series={[
          {
            label: `${t('settlement')} (${house.asset})`,
            color: '#52c41a',
            negativeColor: '#ff4d4f',
            values: house.days.map((d) => num(d.settlement)),
          },
          {
            label: `${t('fees')} (${house.asset})`,
            color: '#722ed1',
            values: house.days.map((d) => num(d.fees)),
          },
        ]}
      />
      <DayTable
        rows={active}
        dayTitle={t('day')}
        columns={[
          {
            title: t('settlement'),
            dataIndex: 'settlement',
            align: 'right',
            render: (v: string) => <Amount value={signed(v)} />,
          },
          {
            title: t('fees'),
            dataIndex: 'fees',
            align: 'right',
            render: (v: string) => <Amount value={signed(v)} />,
          },
          {
            title: t('net'),
            dataIndex: 'net',
            align: 'right',
            render: (v: string) => (
              <Typography.Text strong type={v.startsWith('-') ? 'danger' : 'success'}>
                <Amount value={signed(v)} asset={house.asset} />
              </Typography.Text>
            ),
          },
        ]}
      />
    </div>
  );
}

function Obligations({ data, t }: { data: DashboardData; t: T }) {
  if (data.obligations.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noObligations')} />;
  return (
    <Table
      size="small"
      rowKey="asset"
      pagination={false}
      dataSource={data.obligations}
      data-testid="obligations"
      columns={[
        { title: t('asset'), dataIndex: 'asset' },
        {
          title: t('usersLocked'),
          dataIndex: 'usersLocked',
          align: 'right',
          render: (v: string) => <Amount value={v} />,
        },
        { title: t('openOrders'), dataIndex: 'openOrders', align: 'right' },
        {
          title: t('openStakes'),
          dataIndex: 'openStakes',
          align: 'right',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('openFees'),
          dataIndex: 'openFees',
          align: 'right',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('openMaxPayouts'),
          dataIndex: 'openMaxPayouts',
          align: 'right',
          render: (v: string) => <Amount value={v} />,
        },
      ]}
    />
  );
}

/** The figures under a day-by-day chart, for the days that had any, newest first. */
function DayTable<Row extends { day: string }>({
  rows,
  dayTitle,
  columns,
}: {
  rows: Row[];
  dayTitle: string;
  columns: TableColumnsType<Row>;
}) {
  return (
    <Table<Row>
      size="small"
      rowKey="day"
      pagination={false}
      dataSource={rows}
      style={{ marginTop: 8 }}
      columns={[{ title: dayTitle, dataIndex: 'day' }, ...columns]}
    />
  );
}

/** The overview: queues to work on, the ledger's health, money in and out, the house's result, what is locked. */
export function DashboardPage() {
  const t = useT();
  const board = useDashboard();
  if (board.isPending) return <Spin />;
  if (board.isError)
    return (
      <Alert type="error" showIcon title={t('loadFailed')} description={board.error.message} />
    );
  const data = board.data;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="dashboard">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">
          {t('generated', { time: formatTime(data.generatedAt), from: data.from, to: data.to })}
        </Typography.Text>
        <Button size="small" onClick={() => void board.refetch()} loading={board.isFetching}>
          {t('refresh')}
        </Button>
      </Space>
      <div>
        <Typography.Text type="secondary">{t('queues')}</Typography.Text>
        <div style={{ marginTop: 6 }}>
          <Queues data={data} t={t} />
        </div>
      </div>
      <LedgerStatus data={data} t={t} />
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('flows')}
            extra={
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                UTC
              </Typography.Text>
            }
          >
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('flowsNote')}
            </Typography.Paragraph>
            <Flows data={data} t={t} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('house')}>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('houseNote')}
            </Typography.Paragraph>
            <House data={data} t={t} />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('obligations')}>
        <Obligations data={data} t={t} />
      </Card>
    </Space>
  );
}
