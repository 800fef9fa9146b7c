import sys, logging
logging.basicConfig(level=logging.DEBUG)
from deepeval import evaluate
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
from deepeval.models import LocalModel
from deepeval.evaluate import ErrorConfig, DisplayConfig, CacheConfig
K="QSECRETQUERY999"; U="USERINFOSECRET777"
for i,url in enumerate([f"http://user:{U}@127.0.0.1:18402/v1", f"http://127.0.0.1:18402/v1?api-key={K}&x=1", f"http://127.0.0.1:18402/v1?key={K}"]):
    try:
        m=LocalModel(model="m", api_key="none", base_url=url, max_retries=0)
        print("REPR", repr(m), m.get_model_name())
        r=evaluate([LLMTestCase(input="q?", actual_output="a.")],[AnswerRelevancyMetric(model=m)], error_config=ErrorConfig(ignore_errors=True), display_config=DisplayConfig(results_folder=f"runs_url{i}"), cache_config=CacheConfig(cache_path=f"cache_url{i}.db"))
        for tr in r.test_results:
            for md in tr.metrics_data: print("ROW", md.evaluation_model, repr(md.error))
    except BaseException as e:
        print("EXC", type(e).__name__, e)
