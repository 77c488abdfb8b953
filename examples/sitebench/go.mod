module github.com/undust/undust/examples/sitebench

go 1.26.0

replace (
	github.com/undust/undust => ../..
	github.com/undust/undust/crawlers/colly => ../../crawlers/colly
	github.com/undust/undust/crawlers/katana => ../../crawlers/katana
)

require (
	github.com/PuerkitoBio/goquery v1.11.0
	github.com/andybalholm/cascadia v1.3.3
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/gocolly/colly/v2 v2.3.0
	github.com/projectdiscovery/gologger v1.1.67
	github.com/projectdiscovery/katana v1.5.0
	github.com/undust/undust v0.0.0
	github.com/undust/undust/crawlers/colly v0.0.0-00010101000000-000000000000
	github.com/undust/undust/crawlers/katana v0.0.0-00010101000000-000000000000
	golang.org/x/net v0.62.0
)

require (
	github.com/BishopFox/jsluice v0.0.0-20240110145140-0ddfab153e06 // indirect
	github.com/Knetic/govaluate v3.0.0+incompatible // indirect
	github.com/Mzack9999/gcache v0.0.0-20230410081825-519e28eab057 // indirect
	github.com/Mzack9999/go-http-digest-auth-client v0.6.1-0.20220414142836-eb8883508809 // indirect
	github.com/STARRY-S/zip v0.2.3 // indirect
	github.com/akrylysov/pogreb v0.10.1 // indirect
	github.com/andybalholm/brotli v1.2.0 // indirect
	github.com/antchfx/htmlquery v1.3.5 // indirect
	github.com/antchfx/xmlquery v1.5.0 // indirect
	github.com/antchfx/xpath v1.3.5 // indirect
	github.com/asaskevich/govalidator v0.0.0-20230301143203-a9d515a09cc2 // indirect
	github.com/aymerick/douceur v0.2.0 // indirect
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/bodgit/plumbing v1.3.0 // indirect
	github.com/bodgit/sevenzip v1.6.1 // indirect
	github.com/bodgit/windows v1.0.1 // indirect
	github.com/brianvoe/gofakeit/v7 v7.2.1 // indirect
	github.com/cloudflare/circl v1.6.1 // indirect
	github.com/cnf/structhash v0.0.0-20201127153200-e1b16c1ebc08 // indirect
	github.com/dimchansky/utfbom v1.1.1 // indirect
	github.com/ditashi/jsbeautifier-go v0.0.0-20141206144643-2520a8026a9c // indirect
	github.com/djherbis/times v1.6.0 // indirect
	github.com/docker/go-units v0.5.0 // indirect
	github.com/dsnet/compress v0.0.2-0.20230904184137-39efe44ab707 // indirect
	github.com/gaissmai/bart v0.26.0 // indirect
	github.com/go-rod/rod v0.116.2 // indirect
	github.com/gobwas/glob v0.2.3 // indirect
	github.com/golang/groupcache v0.0.0-20241129210726-2c02b8208cf8 // indirect
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/golang/snappy v0.0.4 // indirect
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510 // indirect
	github.com/gorilla/css v1.0.1 // indirect
	github.com/gosimple/slug v1.15.0 // indirect
	github.com/gosimple/unidecode v1.0.1 // indirect
	github.com/happyhackingspace/dit v0.0.14 // indirect
	github.com/hashicorp/go-version v1.8.0 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/hdm/jarm-go v0.0.7 // indirect
	github.com/iangcarroll/cookiemonster v1.6.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/kataras/jwt v0.1.8 // indirect
	github.com/kennygrant/sanitize v1.2.4 // indirect
	github.com/klauspost/compress v1.18.2 // indirect
	github.com/klauspost/pgzip v1.2.6 // indirect
	github.com/logrusorgru/aurora v2.0.3+incompatible // indirect
	github.com/logrusorgru/aurora/v4 v4.0.0 // indirect
	github.com/lukasbob/srcset v0.0.0-20190730101422-86b742e617f3 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/mholt/archives v0.1.5 // indirect
	github.com/microcosm-cc/bluemonday v1.0.27 // indirect
	github.com/miekg/dns v1.1.62 // indirect
	github.com/mikelolasagasti/xz v1.0.1 // indirect
	github.com/minio/minlz v1.0.1 // indirect
	github.com/mitchellh/mapstructure v1.5.0 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/nlnwa/whatwg-url v0.6.2 // indirect
	github.com/nwaples/rardecode/v2 v2.2.2 // indirect
	github.com/pierrec/lz4/v4 v4.1.23 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/projectdiscovery/blackrock v0.0.1 // indirect
	github.com/projectdiscovery/dsl v0.8.5 // indirect
	github.com/projectdiscovery/fastdialer v0.5.2 // indirect
	github.com/projectdiscovery/goflags v0.1.74 // indirect
	github.com/projectdiscovery/gostruct v0.0.2 // indirect
	github.com/projectdiscovery/hmap v0.0.99 // indirect
	github.com/projectdiscovery/mapcidr v1.1.97 // indirect
	github.com/projectdiscovery/networkpolicy v0.1.33 // indirect
	github.com/projectdiscovery/ratelimit v0.0.82 // indirect
	github.com/projectdiscovery/retryabledns v1.0.112 // indirect
	github.com/projectdiscovery/retryablehttp-go v1.3.2 // indirect
	github.com/projectdiscovery/utils v0.8.0 // indirect
	github.com/projectdiscovery/wappalyzergo v0.2.62 // indirect
	github.com/refraction-networking/utls v1.7.1 // indirect
	github.com/remeh/sizedwaitgroup v1.0.0 // indirect
	github.com/rs/xid v1.5.0 // indirect
	github.com/saintfish/chardet v0.0.0-20230101081208-5e3ef4b5456d // indirect
	github.com/sashabaranov/go-openai v1.37.0 // indirect
	github.com/smacker/go-tree-sitter v0.0.0-20230720070738-0d0a9f78d8f8 // indirect
	github.com/sorairolake/lzip-go v0.3.8 // indirect
	github.com/spaolacci/murmur3 v1.1.0 // indirect
	github.com/spf13/afero v1.15.0 // indirect
	github.com/stoewer/go-strcase v1.3.0 // indirect
	github.com/syndtr/goleveldb v1.0.0 // indirect
	github.com/temoto/robotstxt v1.1.2 // indirect
	github.com/tidwall/btree v1.6.0 // indirect
	github.com/tidwall/buntdb v1.3.0 // indirect
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/grect v0.1.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/rtred v0.1.2 // indirect
	github.com/tidwall/tinyqueue v0.1.1 // indirect
	github.com/ulikunitz/xz v0.5.15 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	github.com/valyala/fasttemplate v1.2.2 // indirect
	github.com/vulncheck-oss/go-exploit v1.51.0 // indirect
	github.com/weppos/publicsuffix-go v0.40.3-0.20250408071509-6074bbe7fd39 // indirect
	github.com/xdg-go/pbkdf2 v1.0.0 // indirect
	github.com/ysmood/fetchup v0.2.3 // indirect
	github.com/ysmood/goob v0.4.0 // indirect
	github.com/ysmood/got v0.40.0 // indirect
	github.com/ysmood/gson v0.7.3 // indirect
	github.com/ysmood/leakless v0.9.0 // indirect
	github.com/zmap/rc2 v0.0.0-20190804163417-abaa70531248 // indirect
	github.com/zmap/zcrypto v0.0.0-20230422215203-9a665e1e9968 // indirect
	go.etcd.io/bbolt v1.3.7 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	go4.org v0.0.0-20230225012048-214862532bf5 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b // indirect
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.14.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
	google.golang.org/appengine v1.6.8 // indirect
	google.golang.org/protobuf v1.36.10 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
