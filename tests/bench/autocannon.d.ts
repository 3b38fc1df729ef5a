// The part of autocannon's API the API benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Percentiles {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    p50: number
    p90: number
    p97_5: number
    p99: number
    p99_9: number
    total: number
  }
  interface RequestOptions {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: RequestOptions) => RequestOptions
  }
  interface Options {
    url: string
    connections?: number
    duration?: number
    overallRate?: number
    headers?: Record<string, string>
    requests?: RequestOptions[]
  }
  interface Result {
    requests: Percentiles & { sent: number }
    latency: Percentiles
    throughput: Percentiles
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    duration: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
