/* stage_plan.c - freeing stage trees and naming their patterns. */
#include "engine/stage_plan.h"

#include <stdlib.h>

void attu_stage_exprs_free(attu_stage_exprs *e) {
    if (!e) return;
    free(e->direct);
    attu_program_free(e->prog);
    free(e->in_cols);
    e->direct = NULL; e->prog = NULL; e->in_cols = NULL;
}

void attu_stage_free(attu_stage *s) {
    if (!s) return;
    attu_stage_free(s->child[0]);
    attu_stage_free(s->child[1]);
    free(s->types);
    free(s->cols);
    free(s->params);
    free(s->work_cols);
    for (int i = 0; i < s->nrows; i++) attu_program_free(s->rows[i]);
    free(s->rows);
    attu_stage_exprs_free(&s->exprs);
    attu_stage_exprs_free(&s->keys);
    attu_stage_exprs_free(&s->rkeys);
    attu_stage_exprs_free(&s->residual);
    attu_stage_exprs_free(&s->args);
    attu_stage_exprs_free(&s->osa_fracs);
    attu_stage_exprs_free(&s->counts[0]);
    attu_stage_exprs_free(&s->counts[1]);
    free(s->desc);
    free(s->nulls_first);
    for (int i = 0; i < s->naggs; i++) {
        free(s->aggs[i].part); free(s->aggs[i].order); free(s->aggs[i].desc); free(s->aggs[i].nulls_first);
        free(s->aggs[i].tuple);
    }
    free(s->aggs);
    free(s->group_cols);
    free(s->out_need);
    free(s->srfs);
    free(s);
}

const char *attu_stage_kind_name(attu_stage_kind k) {
    switch (k) {
    case ATTU_ST_SCAN: return "Scan";
    case ATTU_ST_VALUES: return "Values";
    case ATTU_ST_FILTER: return "Filter";
    case ATTU_ST_PROJECT: return "Project";
    case ATTU_ST_JOIN: return "Join";
    case ATTU_ST_CROSS: return "Cross Join";
    case ATTU_ST_AGG: return "Aggregate";
    case ATTU_ST_JOIN_AGG: return "Join Aggregate";
    case ATTU_ST_WINDOW: return "Window";
    case ATTU_ST_SORT: return "Sort";
    case ATTU_ST_TOPK: return "Top-K";
    case ATTU_ST_LIMIT: return "Limit";
    case ATTU_ST_DISTINCT: return "Distinct";
    case ATTU_ST_SETOP: return "Set Operation";
    case ATTU_ST_RECURSIVE: return "Recursive Union";
    case ATTU_ST_WORKTABLE: return "WorkTable Scan";
    case ATTU_ST_APPLY: return "SubPlan Apply";
    case ATTU_ST_SRF: return "Function Scan";
    case ATTU_ST_SHARED: return "Shared Input";
    }
    return "?";
}

const char *attu_stage_patterns(const attu_stage *s) {
    switch (s->kind) {
    case ATTU_ST_SCAN: return "resident columns";
    case ATTU_ST_VALUES: return "eval";
    case ATTU_ST_FILTER: return "eval + compact + gather";
    case ATTU_ST_PROJECT: return s->exprs.prog ? "eval" : "pass-through";
    case ATTU_ST_JOIN: return s->residual.n ? "sort + sorted_search + scan + lbs + gather + eval + compact"
                                            : "sort + sorted_search + scan + lbs + gather";
    case ATTU_ST_CROSS: return "lbs + gather";
    case ATTU_ST_AGG: {
        /* the ordered-set aggregates sort the rows again by (keys, value);
         * mode() finds its runs with segment_heads (executor_ordered_set.c) */
        int osa = 0;
        for (int i = 0; i < s->naggs; i++)
            if (s->aggs[i].osa == 3) osa = 2;
            else if (s->aggs[i].osa && !osa) osa = 1;
        if (osa == 2) return s->keys.n ? "sort + segment_heads + segreduce; ordered-set: sort + segment_heads + gather"
                                       : "reduce; ordered-set: sort + segment_heads + gather";
        if (osa == 1) return s->keys.n ? "sort + segment_heads + segreduce; ordered-set: sort + gather"
                                       : "reduce; ordered-set: sort + gather";
        return s->keys.n ? "sort + segment_heads + segreduce" : "reduce";
    }
    case ATTU_ST_JOIN_AGG: return "sort + sorted_search + scan + lbs_segreduce";
    case ATTU_ST_WINDOW: return "sort + segment_heads + scan";
    case ATTU_ST_SORT: return "sort + gather";
    case ATTU_ST_TOPK: return "top_k + gather";
    case ATTU_ST_LIMIT: return s->with_ties ? "segment_heads + gather" : "gather";
    case ATTU_ST_DISTINCT: return "sort + segment_heads + gather";
    case ATTU_ST_SETOP: return s->all && s->setop == 1 ? "concat" : "concat + sort + segment_heads + gather";
    case ATTU_ST_RECURSIVE: return s->all ? "loop: concat" : "loop: concat + sort + segment_heads + gather";
    case ATTU_ST_WORKTABLE: return "pass-through";
    case ATTU_ST_SHARED: return "input once, read by each";
    case ATTU_ST_APPLY: return "key eval + sort + segment_heads, subplan per binding, gather";
    case ATTU_ST_SRF:
        if (s->outer) return s->residual.n ? "eval + series upload + eval + gather (left join)" : "eval + series upload + gather (left join)";
        return s->child[0] && s->child[0]->ncols ? "eval + series upload + gather" : "series upload";
    }
    return "?";
}
