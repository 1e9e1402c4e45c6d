"""The offline answer's own sentences, in the asker's language.

The extractive answerer quotes abstract sentences as written (English); the sentences around
them (which paper is the answer, that nothing here is about it, what an abstract does not state)
are its own, and a question asked in Chinese gets them in Chinese. ``for_form`` picks the set;
each template is filled with ``str.format``.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.query.form import Form
from assistant.textutil import is_chinese


@dataclass(frozen=True)
class Framing:
    most_relevant: str  # {title} {where}
    closest_match: str  # {title} {where}: named, hedged
    # {title} {where} {other} {other_where} {n}: hedged because a second paper is estimated as
    # high
    closest_tied: str
    by_authors: str  # {authors}: after {where}, when the question asks who wrote the paper
    no_authors: str  # ... and the paper list names none
    # "Was the mixup paper accepted?", "Where was X published?": what the list says of it
    record_published: str  # {title} {where} {status}
    record_unpublished: str  # {title} {where} {outcome}
    record_none: str  # {title}
    # before a BibTeX entry after a hedged answer: it is the closest paper's ({title})
    record_if_meant: str
    not_stated: str  # {title} {where} {aspect} {quote}
    also_related: str  # {papers}
    less_sure: str  # {papers}: a list's papers estimated below its own cut-off (V_MAYBE)
    # ... when with them the list is as long as one that may have been cut by k
    less_sure_more: str  # {papers}
    listing: str  # {n}
    listing_more: str  # {n}: the list may have been cut by k
    listing_counted: str  # {n}: as many papers as the question asked for
    listing_aspect: str  # {aspect}: after a list's head, what each paper is quoted on
    listing_unstated: str  # a listed paper whose abstract states no such thing: its closest
    listing_who: str  # "who works on X?": the head of those on more than one listed paper
    listing_who_none: str  # ... when no author is
    listing_author: str  # {n} {author}: an author's papers, newest first
    listing_author_one: str  # {author}: the one paper of an author
    nothing_here: str  # {asked}
    # a question that sifts the {m} papers a recent answer listed ("which of them use X?")
    sifted_note: str  # {m}: what was searched, before any answer to such a question
    # "papers on X that do not use Y": {n} {papers} {thing}, said before the list; {thing}
    # when none of the papers found mentions it
    left_out: str
    left_none: str
    # "Papers by Smith", several authors here Smiths: {n} {surname} {names} {first}
    namesakes: str
    # "Are there any surveys on X?": {topic}, said before its surveys, or before its papers
    # when none of them presents itself as one
    reviews_found: str
    reviews_none: str
    # a venue the question names that the collection does not hold: {venue} {venues}; or,
    # its list naming no venue, {venue}
    venue_absent: str
    venue_none: str
    listing_sifted: str  # {n}
    listing_each: str  # {n}: "Summarize each of these papers": the papers listed before
    one_sifted: str  # {title} {where}: the one of them that bears on it
    nothing_sifted: str  # {asked}
    nothing_both: str  # {asked}: a comparison, neither side's paper sure (closest to each first)
    nothing_sides: str  # {asked}: ... of three or more sides
    # a comparison some sides of which are found, others not, each side said in turn: {which}
    # (its ordinal) {title} [{n}] its paper, named as the answer or as its closest match; or
    # not found, {closest} [{n}] only the closest to it; then ``sides_tail``
    side_sure: str
    side_closest: str
    side_missing: str
    sides_tail: str
    ordinals: tuple[str, ...]  # the sides, as the side_ sentences name them
    nothing_on_both: str  # {a} {b}: a list asking for papers on two things at once, none is
    not_introduced: str  # {missing}
    side_not_introduced: str  # {missing}: a comparison's named method no paper introduces
    sides_not_introduced: str  # {missing}: several ("PPO, SAC and TD3")
    across_languages: str  # {asked}: a near miss matched by multilingual-e5, not by its words
    side_by_side: str
    side_by_side_closest: str  # a comparison not sure of each side's paper
    points: dict[str, str]  # problem, method, data, result
    point_missing: str
    point_asked: str  # the point a comparison is made on ("on sample efficiency"), its row
    no_sources: str
    list_sep: str
    refusal: str  # {n} {asked}: off-domain
    unreadable: str  # a question no dictionary word of which was found (offline)
    nothing_asked: str  # {asked}: a turn that asks nothing ("thanks", "ok")


ENGLISH = Framing(
    most_relevant="The most relevant paper is **{title}**{where} [1].",
    closest_match=("The closest match is **{title}**{where} [1], though it may not be about "
                   "exactly this."),
    closest_tied=("Two papers here match this about equally well: **{title}**{where} [1] and "
                  "**{other}**{other_where} [{n}]."),
    by_authors=", by {authors}",
    no_authors=" (the paper list names no authors for it)",
    record_published="The paper list has {title} at {where}{status}.",
    record_unpublished="The paper list has {title} as a submission to {where}, {outcome}.",
    record_none="The paper list gives no venue, year or status for {title}.",
    record_if_meant="If {title} is the paper you mean, its entry:",
    not_stated=("The abstract of **{title}**{where} [1] does not state {aspect}. The closest it "
                "comes: {quote} [1]"),
    also_related="\n\nAlso related: {papers}.",
    less_sure="\n\nPossibly related too (not as sure): {papers}.",
    less_sure_more=("\n\nPossibly related too (not as sure): {papers}. More may be: --k N, or "
                    "ctrl+k in the chat, searches further."),
    listing="{n} papers in the collection bear on this, best first:",
    listing_counted="The {n} papers that bear most on this, best first:",
    listing_more=("{n} papers in the collection bear on this, best first (more may: --k N, or "
                  "ctrl+k in the chat, searches further):"),
    listing_aspect="\nEach is quoted on {aspect}, where its abstract states it.",
    listing_unstated="(not found in its abstract; its closest sentence) ",
    listing_who="Authors on more than one of them:",
    listing_who_none="No author is on more than one of them.",
    listing_author="{n} papers by {author} in the collection, newest first:",
    listing_author_one="1 paper by {author} in the collection:",
    nothing_here="Nothing in this collection is about “{asked}”. The closest papers, none of "
                 "which answers it:",
    sifted_note="(Searched only the {m} papers listed before.)",
    left_out=("(Left out: {n} {papers} the search found whose title or abstract mentions "
              "“{thing}”; a paper whose abstract does not mention it may still use it.)"),
    left_none=("(None of the papers the search found mentions “{thing}” in its title or "
               "abstract; one may still use it.)"),
    namesakes=("({n} authors here have the surname {surname}: {names}. Name one in full to "
               "see their papers: “Papers by {first}”.)"),
    venue_absent=("(No paper here is from {venue}: the venues here are {venues}. Every paper "
                  "was searched.)"),
    venue_none=("(The list names no venue for its papers, so none is known to be from {venue}; "
                "every paper was searched.)"),
    reviews_found=("(Of the papers the search found on “{topic}”, those that present "
                   "themselves as a survey, review, meta-analysis or tutorial.)"),
    reviews_none=("(None of the papers the search found on “{topic}” presents itself as a "
                  "survey, review, meta-analysis or tutorial. Its papers on it follow.)"),
    listing_sifted="{n} of them bear on this, best first:",
    listing_each="The {n} papers listed before, each with the sentence of its abstract that "
                 "says most of what it does:",
    one_sifted="One of them bears on this: **{title}**{where} [1].",
    nothing_sifted="None of them is about “{asked}”. The closest of them:",
    nothing_both=("No two papers in this collection clearly match both sides of “{asked}”. The "
                  "closest to each side first, then the next closest:"),
    nothing_sides=("Not every side of “{asked}” clearly matches a paper in this collection. The "
                   "closest to each side first, then the next closest:"),
    side_sure="The {which} side of this comparison is **{title}** [{n}]. ",
    side_closest="The closest match to the {which} side of this comparison is **{title}** [{n}]. ",
    side_missing=("No paper in this collection clearly matches the {which} side: **{closest}** "
                  "[{n}] is only the closest to it. "),
    sides_tail="The closest to each side first, then the next closest:",
    ordinals=("first", "second", "third", "fourth", "fifth", "sixth"),
    nothing_on_both=("No paper in this collection is about both “{a}” and “{b}”. The closest "
                     "papers, none of which is about both:"),
    # the closest paper found for such a side need not use or mention the method at all
    side_not_introduced=("(No paper in this collection introduces {missing}: that side is the "
                         "closest paper found, not its own.)"),
    sides_not_introduced=("(No paper in this collection introduces {missing}: those sides are "
                          "the closest papers found, not their own.)"),
    not_introduced=("No paper in this collection introduces {missing}: it is not in this "
                    "collection. The closest papers, none of which is about it:"),
    across_languages=("No paper here clearly matches “{asked}”: matched across languages "
                      "offline, no one paper stands out. Ask in English to search the "
                      "abstracts' own words (or configure an LLM endpoint to translate the "
                      "question). The closest papers:"),
    side_by_side="What each paper says on the same points, side by side:",
    side_by_side_closest=("The closest match to each side, though one may not be the paper "
                          "meant; what each says on the same points, side by side:"),
    points={"problem": "problem", "method": "method", "data": "data", "result": "result"},
    point_missing="not stated in the abstract",
    point_asked="on {point}",
    no_sources="The indexed papers do not answer this question.",
    list_sep="; ",
    refusal=("The indexed papers do not answer this: none of the {n} papers searched is about "
             "“{asked}”. Try other words, or ingest a paper list that covers it."),
    nothing_asked=("“{asked}” asks nothing to look up. Ask about a topic, a method or a paper "
                   "(“Which paper ...?”), or follow up on the last answer (“What data did they "
                   "use?”)."),
    unreadable=("The indexed papers do not answer this in the offline mode: none of the "
                "question's words was found in the dictionaries that turn it into the "
                "abstracts' English. Ask in English or Chinese, name the method, make the "
                "multilingual vectors once with `assistant ingest FILE --multilingual` (about 2 "
                "papers a second), or configure an LLM endpoint (OPENAI_BASE_URL) to translate "
                "the question."),
)

CHINESE = Framing(
    most_relevant="最相关的论文是 **{title}**{where} [1]。",
    closest_match="最接近的是 **{title}**{where} [1]，但它未必正好是所问的内容。",
    closest_tied=("有两篇论文与此同样吻合：**{title}**{where} [1] 和 "
                  "**{other}**{other_where} [{n}]。"),
    by_authors="，作者 {authors}",
    no_authors="（论文列表没有给出作者）",
    record_published="论文列表中，{title} 发表于 {where}{status}。",
    record_unpublished="论文列表中，{title} 是投给 {where} 的稿件，结果：{outcome}。",
    record_none="论文列表没有给出 {title} 的会议、年份或状态。",
    record_if_meant="如果您指的是 {title}，其条目如下：",
    not_stated=("最相关的论文 **{title}**{where} [1] 的摘要没有说明{aspect}。"
                "最接近的一句：{quote} [1]"),
    also_related="\n\n另见：{papers}。",
    less_sure="\n\n把握较小、但可能也相关的：{papers}。",
    less_sure_more=("\n\n把握较小、但可能也相关的：{papers}。可能还有更多：--k N，或在对话中按 "
                    "ctrl+k 扩大搜索。"),
    listing="本文集中有 {n} 篇论文与此相关，按相关程度排列：",
    listing_counted="与此最相关的 {n} 篇论文，按相关程度排列：",
    listing_more="本文集中有 {n} 篇论文与此相关，按相关程度排列（可能还有更多：--k N，或在对话中按 "
                 "ctrl+k 扩大搜索）：",
    listing_aspect="\n每篇引用其摘要中说明{aspect}的句子（如有）。",
    listing_unstated="（摘要中未找到；最接近的一句）",
    listing_who="不止一篇的作者：",
    listing_who_none="没有作者出现在其中一篇以上。",
    listing_author="本文集中 {author} 的论文有 {n} 篇，由新到旧：",
    listing_author_one="本文集中 {author} 的论文有 1 篇：",
    nothing_here="本文集中没有论文是关于“{asked}”的。最接近的几篇（都不能回答这个问题）：",
    sifted_note="（只在前面列出的 {m} 篇论文中查找。）",
    left_out=("（已排除搜索到的 {n} 篇标题或摘要提到“{thing}”的论文；摘要未提及的论文"
              "仍可能使用它。）"),
    left_none="（搜索到的论文中，没有一篇在标题或摘要中提到“{thing}”；但仍可能有论文使用它。）",
    namesakes="（这里有 {n} 位作者姓 {surname}：{names}。请写出全名，例如“Papers by {first}”。）",
    venue_absent="（本文集中没有来自 {venue} 的论文：这里的会议是 {venues}。已检索全部论文。）",
    venue_none="（论文列表没有给出会议，无法知道哪些来自 {venue}；已检索全部论文。）",
    reviews_found="（搜索到的关于“{topic}”的论文中，自称综述、评述、荟萃分析或教程的几篇。）",
    reviews_none="（搜索到的关于“{topic}”的论文中，没有一篇自称综述、评述、荟萃分析或教程。以下是关于它的论文。）",
    listing_sifted="其中有 {n} 篇与此相关，按相关程度排列：",
    listing_each="前面列出的 {n} 篇论文，每篇引用其摘要中最能说明它做了什么的一句：",
    one_sifted="其中有一篇与此相关：**{title}**{where} [1]。",
    nothing_sifted="其中没有论文是关于“{asked}”的。最接近的几篇：",
    nothing_both="本文集中没有两篇论文能明确对应“{asked}”的两方。先列出与每一方最接近的论文，再列其次接近的：",
    nothing_sides="本文集中的论文不能明确对应“{asked}”的每一方。先列出与每一方最接近的论文，再列其次接近的：",
    side_sure="比较的{which}方是 **{title}** [{n}]。",
    side_closest="与比较的{which}方最接近的是 **{title}** [{n}]。",
    side_missing="本文集中没有论文明确对应{which}方：**{closest}** [{n}] 只是与它最接近的。",
    sides_tail="先列出与每一方最接近的论文，再列其次接近的：",
    ordinals=("第一", "第二", "第三", "第四", "第五", "第六"),
    nothing_on_both="本文集中没有论文同时关于“{a}”和“{b}”。最接近的几篇（都不是同时关于两者的）：",
    not_introduced="本文集中没有论文提出 {missing}。最接近的几篇（都不是关于它的）：",
    side_not_introduced=("（本文集中没有论文提出 {missing}：那一方列出的是找到的最接近的论文，"
                         "并非它本身的论文。）"),
    sides_not_introduced=("（本文集中没有论文提出 {missing}：那几方列出的是找到的最接近的论文，"
                          "并非这些方法本身的论文。）"),
    across_languages=("本文集中没有论文明确对应“{asked}”：离线跨语言匹配时没有哪一篇特别"
                      "突出。用英文提问可以直接匹配摘要原文（或配置 LLM 端点来翻译问题）。"
                      "最接近的几篇："),
    side_by_side="各篇论文在相同要点上的说法，并列如下：",
    side_by_side_closest="以下是与每一方各自最接近的论文（其中一篇未必是您所指的），它们在相同要点上的说法并列如下：",
    points={"problem": "问题", "method": "方法", "data": "数据", "result": "结果"},
    point_missing="摘要中没有说明",
    point_asked="关于“{point}”",
    no_sources="已索引的论文不能回答这个问题。",
    list_sep="；",
    refusal=("已索引的论文不能回答这个问题：检索过的 {n} 篇论文都不是关于“{asked}”的。"
             "请换个说法，或导入涵盖这一主题的论文列表。"),
    nothing_asked=("“{asked}”没有提出要查找的问题。请询问某个主题、方法或论文（“哪篇论文……？”），"
                   "或追问上一个回答（“他们用了什么数据？”）。"),
    unreadable=("离线模式下无法回答：问题中的词在词典里都找不到对应的英文，无法与英文摘要匹配。"
                "请用英文提问、写出方法名，用 `assistant ingest FILE --multilingual` 生成多语言向量"
                "（每秒约 2 篇），或配置 LLM 端点（OPENAI_BASE_URL）来翻译问题。"),
)

def for_form(form: Form) -> Framing:
    """Chinese for a question in Chinese; English otherwise (Japanese and Korean included)."""
    return CHINESE if form.cjk and is_chinese(form.question) else ENGLISH
